import type { EChartsType } from 'echarts/core';
import { ApiError, allNodes, request } from './api.js';
import { askForKey } from './api-key.js';
import { mountChart } from './charts.js';
import { type BorderOption, readSelection, renderBorderPicker, renderZonePicker, syncDateInputs } from './controls.js';
import { chunkRange, DAY_MS, flowSeries, HOURLY_CHUNK_MS, hourOfDayMeans, isoDay, priceSeries, priceStats, type Range, resolveChoice, tomorrowOf } from './data.js';
import { CatalogueQuery, ClockQuery, FlowSharesQuery, FlowsQuery, PricesQuery } from './queries.js';
import { renderFlows, renderPrices, renderTomorrow } from './render.js';

/** Zones and border picked when the page opens (those the catalogue knows). */
const DEFAULT_ZONES = ['DE_LU', 'FR', 'NL', 'ES', 'PL'];
const DEFAULT_BORDER = 'DE_LU->FR';
const DEBOUNCE_MS = 250;

/** The running dashboard. */
export interface Dashboard {
  /** Re-reads the server clock and reloads every panel (the hook for live updates). */
  refresh(): Promise<void>;
}

const iso = (ms: number): string => new Date(ms).toISOString();

async function fetchPrices(zones: string[], range: Range, resolution: 'HOURLY' | 'NATIVE') {
  const chunks = resolution === 'HOURLY' ? chunkRange(range, HOURLY_CHUNK_MS) : [range];
  const pages = await Promise.all(
    chunks.map((c) => allNodes(async (after) => (await request(PricesQuery, { zones, from: iso(c.from), to: iso(c.to), resolution, first: 10_000, after })).prices)),
  );
  return pages.flat();
}

async function fetchFlows(border: string, range: Range) {
  const chunks = chunkRange(range, HOURLY_CHUNK_MS);
  const [pages, shares] = await Promise.all([
    Promise.all(chunks.map((c) => allNodes(async (after) => (await request(FlowsQuery, { border, from: iso(c.from), to: iso(c.to), first: 5_000, after })).flows))),
    request(FlowSharesQuery, { border, from: iso(range.from), to: iso(range.to) }),
  ]);
  return { rows: pages.flat(), shares: shares.flowTypeSummary.rows };
}

const byId = <T extends HTMLElement>(id: string): T => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`dashboard page without #${id}`);
  return node as T;
};

/** Builds the pickers from the catalogue, loads every panel, and reloads panels when the selection changes. */
export async function startDashboard(doc: Document): Promise<Dashboard> {
  const form = byId<HTMLFormElement>('controls');
  const status = byId('status');
  const charts: Record<'prices' | 'heatmap' | 'tomorrow' | 'flows' | 'shares', EChartsType> = {
    prices: mountChart(byId('prices-chart')),
    heatmap: mountChart(byId('heatmap-chart')),
    tomorrow: mountChart(byId('tomorrow-chart')),
    flows: mountChart(byId('flows-chart')),
    shares: mountChart(byId('shares-chart')),
  };
  let nowMs = Date.now();
  let borders: readonly BorderOption[] = [];
  let pending = 0;
  let failed: string | null = null;
  const seq = { prices: 0, flows: 0 };

  let needsKey: string | null = null;
  const setState = () => {
    if (pending === 0 && needsKey) return askForKey(doc, needsKey);
    doc.body.dataset.state = pending > 0 ? 'loading' : failed ? 'error' : 'ready';
    if (pending === 0 && !failed) status.textContent = `Server time ${iso(nowMs).slice(0, 16).replace('T', ' ')} UTC.`;
  };
  const track = async (work: () => Promise<void>): Promise<void> => {
    pending++;
    failed = null;
    setState();
    try {
      await work();
    } catch (err) {
      failed = err instanceof Error ? err.message : String(err);
      status.textContent = `Could not load data: ${failed}`;
      if (err instanceof ApiError && err.status === 401) needsKey = failed;
    } finally {
      pending--;
      setState();
    }
  };

  const currentRange = (): Range | null => {
    const sel = readSelection(form);
    syncDateInputs(form, { from: isoDay(nowMs - 6 * DAY_MS), to: isoDay(nowMs), max: isoDay(tomorrowOf(nowMs).from) });
    const range = resolveChoice(sel.range, nowMs);
    byId('range-error').textContent = typeof range === 'string' ? range : '';
    return typeof range === 'string' ? null : range;
  };

  const loadPrices = () =>
    track(async () => {
      const id = ++seq.prices;
      const range = currentRange();
      if (!range) return;
      const { zones } = readSelection(form);
      const tomorrow = tomorrowOf(nowMs);
      const [rows, next] = zones.length
        ? await Promise.all([fetchPrices(zones, range, 'HOURLY'), fetchPrices(zones, tomorrow, 'NATIVE')])
        : [[], []];
      if (id !== seq.prices) return;
      const series = priceSeries(rows, zones);
      renderPrices(charts.prices, charts.heatmap, { zones, range, series, stats: priceStats(series), cells: hourOfDayMeans(series, zones) });
      renderTomorrow(charts.tomorrow, { zones, day: tomorrow, series: priceSeries(next, zones) });
    });

  const loadFlows = () =>
    track(async () => {
      const id = ++seq.flows;
      const range = currentRange();
      const border = borders.find((b) => b.key === readSelection(form).border);
      if (!range || !border) return;
      const { rows, shares } = await fetchFlows(border.key, range);
      if (id !== seq.flows) return;
      renderFlows(charts.flows, charts.shares, { border, range, flows: flowSeries(rows, border.zoneA.code), hours: rows.length, shares });
    });

  const readClock = async () => {
    const { clock } = await request(ClockQuery, {});
    if (clock.meta.resolvedTo) nowMs = Date.parse(clock.meta.resolvedTo);
    const sources = clock.meta.upstreamSources ?? [];
    if (sources.length) byId('sources').textContent = `Data source: ${sources.join(', ')}. Times are UTC.`;
  };

  const refresh = () => track(async () => {
    await readClock();
    await Promise.all([loadPrices(), loadFlows()]);
  });

  const due = new Set<'prices' | 'flows'>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = (...panels: ('prices' | 'flows')[]) => {
    doc.body.dataset.state = 'loading';
    for (const p of panels) due.add(p);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const loads = [...due].map((p) => (p === 'prices' ? loadPrices() : loadFlows()));
      due.clear();
      void Promise.all(loads);
    }, DEBOUNCE_MS);
  };
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('change', (e) => {
    const name = (e.target as HTMLInputElement).name;
    if (name === 'zone') later('prices');
    else if (name === 'border') later('flows');
    else later('prices', 'flows');
  });

  await track(async () => {
    const [catalogue] = await Promise.all([request(CatalogueQuery, {}), readClock()]);
    borders = catalogue.borders;
    const known = new Set(catalogue.zones.map((z) => z.code));
    const picked = DEFAULT_ZONES.filter((z) => known.has(z));
    renderZonePicker(byId('zone-list'), catalogue.zones, new Set(picked.length ? picked : catalogue.zones.slice(0, 3).map((z) => z.code)));
    renderBorderPicker(byId<HTMLSelectElement>('border-select'), borders, borders.some((b) => b.key === DEFAULT_BORDER) ? DEFAULT_BORDER : (borders[0]?.key ?? ''));
    await Promise.all([loadPrices(), loadFlows()]);
  });
  return { refresh };
}
