import type { EChartsType } from 'echarts/core';
import { ApiError, request } from './api.js';
import { askForKey } from './api-key.js';
import { mountChart } from './charts.js';
import {
  applyState,
  type BorderOption,
  readSelection,
  renderBorderPicker,
  renderZonePicker,
  syncDateInputs,
} from './controls.js';
import {
  DAY_MS,
  type FlowRow,
  flowSeries,
  HOUR_MS,
  hourOfDayMeans,
  type DenseFlows,
  floorDay,
  isoDay,
  type PriceRow,
  priceSeries,
  type Range,
  resolveChoice,
  tomorrowOf,
} from './data.js';
import {
  bounds,
  fetchBorderAnalytics,
  fetchFlows,
  fetchMapHour,
  fetchPrices,
  fetchView,
  fetchZoneAnalytics,
  fitsOneRequest,
  instants,
  type Scope,
} from './fetch.js';
import { addExports, clearExportErrors, type DataFormat, type DataSource } from './export.js';
import { drawMap, type EuropeMap, type MapHour } from './map.js';
import { renderBorderAnalytics, renderCi, renderKpis, renderTrade } from './panels.js';
import { ClockQuery, StartQuery } from './queries.js';
import { renderFlows, renderPrices, renderTomorrow } from './render.js';
import { readState, writeState } from './state.js';
import { browserZone, toWall, type ViewTz, zoneName } from './time.js';
import { type Begun, earlyStarts, earlyStartText } from './zone-periods.js';

const DEBOUNCE_MS = 250;
const PLAY_STEP_MS = 800;
const CHART_IDS = ['prices', 'heatmap', 'tomorrow', 'flows', 'shares', 'duration', 'scatter', 'ci', 'trade'] as const;
type ChartId = (typeof CHART_IDS)[number];
type Panel = 'prices' | 'zones' | 'flows' | 'map';

/** The running dashboard. */
export interface Dashboard {
  /** Re-reads the server clock and reloads every panel (the hook for live updates). */
  refresh(): Promise<void>;
}

const byId = <T extends HTMLElement>(id: string): T => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`dashboard page without #${id}`);
  return node as T;
};

/** Performance mark set once every panel of the first view shows its data (ms since navigation start in `startTime`). */
export const FIRST_RENDER_MARK = 'dashboard:first-render';

/** Flows with their hours as wall-clock ms of `zone`. */
const wallFlows = (flows: DenseFlows, zone: string): DenseFlows => ({
  ...flows,
  hours: flows.hours.map((ms) => toWall(ms, zone)),
});

const RESOLUTION_WORD = { NATIVE: 'native', HOURLY: 'hourly', DAILY: 'daily' } as const;

/** Builds the pickers and the map from the catalogue and the URL, loads every panel, and reloads panels (and the URL) when the selection changes. */
export async function startDashboard(doc: Document): Promise<Dashboard> {
  const form = byId<HTMLFormElement>('controls');
  const status = byId('status');
  const slider = byId<HTMLInputElement>('map-hour');
  const play = byId<HTMLButtonElement>('map-play');
  const charts = Object.fromEntries(CHART_IDS.map((id) => [id, mountChart(byId(`${id}-chart`))])) as Record<
    ChartId,
    EChartsType
  >;
  let nowMs = Date.now();
  let borders: readonly (BorderOption & Begun)[] = [];
  let zonesBegun: readonly Begun[] = [];
  let map: EuropeMap | null = null;
  let hourMs: number | null = null;
  let pending = 0;
  let failed: string | null = null;
  let needsKey: string | null = null;
  const seq: Record<Panel, number> = { prices: 0, zones: 0, flows: 0, map: 0 };
  byId('tz-local').textContent = `Local (${browserZone()})`;

  const setState = () => {
    if (pending === 0 && needsKey) return askForKey(doc, needsKey);
    doc.body.dataset.state = pending > 0 ? 'loading' : failed ? 'error' : 'ready';
    if (pending === 0 && !failed)
      status.textContent = `Server time ${new Date(nowMs).toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
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

  /** The server's clock as wall-clock ms of a view's zone. */
  const wallNow = (tz: ViewTz) => toWall(nowMs, zoneName(tz));
  /** The delivery day after the market's today, in market time (CET/CEST). */
  const tomorrow = (): Scope => ({ range: tomorrowOf(wallNow('market')), tz: 'market' });
  /** The range the panels show, so a switch to "Custom" starts from it. */
  let shown: Range | null = null;
  /** The scatter's bins on screen (merged over the range's pieces), what its CSV holds. */
  let shownScatter: { a: string; b: string; bins: readonly [number, number, number][] } | null = null;
  const currentScope = (): Scope | null => {
    const sel = readSelection(form);
    const now = wallNow(sel.tz);
    const fallback = shown ?? { from: floorDay(now) - 6 * DAY_MS, to: floorDay(now) + DAY_MS };
    syncDateInputs(form, {
      from: isoDay(fallback.from),
      to: isoDay(fallback.to - DAY_MS),
      max: isoDay(tomorrowOf(now).from),
    });
    const range = resolveChoice(sel.range, now);
    byId('range-error').textContent = typeof range === 'string' ? range : '';
    if (typeof range === 'string') return null;
    shown = range;
    return { range, tz: sel.tz };
  };
  const tzName = (scope: Scope) => zoneName(scope.tz);
  /** Series of instants as wall-clock ms of the view's zone, what the charts' axes read. */
  const onClock = (series: Map<string, [number, number][]>, zone: string) =>
    new Map([...series].map(([z, points]) => [z, points.map(([ms, v]) => [toWall(ms, zone), v] as [number, number])]));
  const hourFormat = () =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zoneName(readSelection(form).tz),
      dateStyle: 'medium',
      timeStyle: 'short',
    });
  const syncUrl = () => {
    const sel = readSelection(form);
    history.replaceState(
      null,
      '',
      writeState({ ...sel, hour: hourMs === null ? null : new Date(hourMs).toISOString().replace('.000Z', 'Z') }),
    );
  };

  const showPrices = (scope: Scope, rows: readonly PriceRow[], next: readonly PriceRow[]) => {
    const { zones, resolution } = readSelection(form);
    const name = tzName(scope);
    const series = onClock(priceSeries(rows, zones), name);
    renderPrices(charts.prices, charts.heatmap, {
      zones,
      range: scope.range,
      series,
      cells: hourOfDayMeans(series, zones),
      kind: RESOLUTION_WORD[resolution],
      tzName: name,
    });
    renderTomorrow(charts.tomorrow, {
      zones,
      day: tomorrow().range,
      series: onClock(priceSeries(next, zones), name),
      tzName: name,
    });
  };
  const loadPrices = () =>
    track(async () => {
      const id = ++seq.prices;
      const scope = currentScope();
      if (!scope) return;
      const { zones, resolution } = readSelection(form);
      const [rows, next] = await Promise.all([
        fetchPrices(zones, scope, resolution),
        fetchPrices(zones, tomorrow(), 'NATIVE'),
      ]);
      if (id === seq.prices) showPrices(scope, rows, next);
    });

  const showZones = (data: Awaited<ReturnType<typeof fetchZoneAnalytics>>) => {
    const { zones, resolution } = readSelection(form);
    byId('kpi-title').textContent =
      resolution === 'NATIVE'
        ? 'Price KPIs (EUR/MWh, over hourly means: the API computes KPIs per hour, also under Native)'
        : 'Price KPIs (EUR/MWh, over hourly means)';
    renderKpis(byId('kpi-table').querySelector('tbody') ?? byId('kpi-table'), zones, data.kpis);
    renderCi(charts.ci, byId('ci-summary'), zones, data.ci);
    renderTrade(charts.trade, data.importExport);
  };
  const loadZones = () =>
    track(async () => {
      const id = ++seq.zones;
      const scope = currentScope();
      if (!scope) return;
      const data = await fetchZoneAnalytics(readSelection(form).zones, scope);
      if (id === seq.zones) showZones(data);
    });

  const selectedBorder = () => borders.find((b) => b.key === readSelection(form).border);
  const showFlows = (
    scope: Scope,
    border: BorderOption,
    flows: { rows: readonly FlowRow[]; shares: Parameters<typeof renderFlows>[2]['shares'] },
    analytics: Awaited<ReturnType<typeof fetchBorderAnalytics>>,
  ) => {
    renderFlows(charts.flows, charts.shares, {
      border,
      range: scope.range,
      flows: wallFlows(flowSeries(flows.rows, border.zoneA.code), tzName(scope)),
      hours: flows.rows.length,
      shares: flows.shares,
      tzName: tzName(scope),
    });
    renderBorderAnalytics(charts.duration, charts.scatter, border.zoneA.code, border.zoneB.code, analytics);
    shownScatter = { a: border.zoneA.code, b: border.zoneB.code, bins: analytics.scatter };
  };
  const loadFlows = () =>
    track(async () => {
      const id = ++seq.flows;
      const scope = currentScope();
      const border = selectedBorder();
      if (!scope || !border) return;
      const [flows, analytics] = await Promise.all([
        fetchFlows(border.key, scope),
        fetchBorderAnalytics(border.key, scope),
      ]);
      if (id === seq.flows) showFlows(scope, border, flows, analytics);
    });

  /** The hours the slider offers, UTC instants: those of the range (in its zone) up to the server's current hour. */
  const mapHours = (scope: Scope): Range => {
    const range = instants(scope);
    return {
      from: range.from,
      to: Math.max(range.from + HOUR_MS, Math.min(range.to, Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS)),
    };
  };
  /** Sets the slider and its label for the map's hour (kept when inside the range); returns that hour and its label. */
  const mapHourOf = (scope: Scope): { hourMs: number; label: string } => {
    const hours = mapHours(scope);
    const count = (hours.to - hours.from) / HOUR_MS;
    const at = hourMs === null || hourMs < hours.from || hourMs >= hours.to ? hours.to - HOUR_MS : hourMs;
    hourMs = at;
    slider.max = String(count - 1);
    slider.value = String((at - hours.from) / HOUR_MS);
    const label = `${hourFormat().format(at)} ${tzName(scope)}`;
    byId('map-label').textContent = label;
    slider.setAttribute('aria-valuetext', label);
    return { hourMs: at, label };
  };
  const loadMap = () =>
    track(async () => {
      const id = ++seq.map;
      const scope = currentScope();
      if (!scope || !map) return;
      const at = mapHourOf(scope);
      const hour = await fetchMapHour(at.hourMs, at.label);
      if (id === seq.map) showMap(hour, at.hourMs);
    });
  const showMap = (hour: MapHour, at: number) => {
    map?.show(hour);
    markSelection();
    const values = [...hour.prices.values()];
    byId('map-scale').textContent = values.length
      ? `${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)} EUR/MWh`
      : 'no prices';
    const against = [...hour.flows.values()].filter((f) => f.type === 'COUNTER_INTUITIVE');
    byId('map-summary').textContent =
      `${hour.label}: prices for ${hour.prices.size} zones, flows at ${hour.flows.size} borders; ${against.length} against the price signal${against.length ? ` (${against.map((f) => `${f.from} → ${f.to}`).join(', ')})` : ''}.`;
    byId('map').dataset.hour = new Date(at).toISOString();
  };
  const markSelection = () => {
    const sel = readSelection(form);
    for (const g of byId('map').querySelectorAll<SVGGElement>('.zone'))
      g.classList.toggle('selected', sel.zones.includes(g.dataset.zone ?? ''));
    for (const g of byId('map').querySelectorAll<SVGGElement>('.border'))
      g.classList.toggle('selected', g.dataset.border === sel.border);
  };

  const REST_RES = { NATIVE: 'native', HOURLY: '1H', DAILY: '1D' } as const;
  /** The URL of `/api/v1/<path>` for the range on screen (or `fixed`) in `format`, with the chart's own parameters. */
  const rest = (path: string, extra: Record<string, string | string[]>, fixed?: Scope) => (format: DataFormat) => {
    const scope = fixed ?? currentScope();
    if (!scope) return null;
    const b = bounds(scope.range, scope.tz);
    const p = new URLSearchParams({ datetime_from: b.from, datetime_to: b.to, format });
    if (b.timeZone) p.set('tz', b.timeZone);
    for (const [k, v] of Object.entries(extra)) for (const x of [v].flat()) p.append(k, x);
    return `/api/v1/${path}?${p.toString()}`;
  };
  const sel = () => readSelection(form);
  const ALL: readonly DataFormat[] = ['csv', 'arrow', 'parquet'];
  /** Through `/api/v1/export/*`: any range, every format. */
  const exported = (path: string, extra: () => Record<string, string | string[]>, fixed?: () => Scope): DataSource => ({
    formats: ALL,
    url: (format) => rest(`export/${path}`, extra(), fixed?.())(format),
  });
  const csvOnly = (path: string, extra: () => Record<string, string | string[]>): DataSource => ({
    formats: ['csv'],
    url: (format) => rest(path, extra())(format),
  });
  const scatterCsv = (): string | null => {
    if (!shownScatter) return null;
    const { a, b, bins } = shownScatter;
    const lines = bins.map(([mw, delta, count]) => `${a},${b},${mw},${delta},${count}`);
    return ['bidding_zone_from,bidding_zone_to,net_flow_mw,price_delta,count', ...lines, ''].join('\n');
  };
  const exports: Record<ChartId, [string, DataSource]> = {
    prices: [
      'the price chart',
      exported('prices', () => ({ zone: sel().zones, resolution: REST_RES[sel().resolution] })),
    ],
    heatmap: ['the hour-of-day heatmap', exported('prices', () => ({ zone: sel().zones, resolution: '1H' }))],
    tomorrow: ["tomorrow's prices", exported('prices', () => ({ zone: sel().zones, resolution: 'native' }), tomorrow)],
    flows: ['the border flows', exported('flows', () => ({ border: sel().border, resolution: '1H' }))],
    shares: [
      'the daily flow-type shares',
      exported('flow-type-summary', () => ({ border: sel().border, resolution: '1D' })),
    ],
    duration: ['the flow duration curve', csvOnly('flow-duration', () => ({ border: sel().border, points: '101' }))],
    scatter: ['the flow/price scatter', { formats: ['csv'], csv: scatterCsv }],
    ci: ['the counter-intuitive share', exported('ci-share', () => ({ zone: sel().zones, resolution: '1D' }))],
    trade: ['the imports and exports', csvOnly('zone-import-export', () => ({ zone: sel().zones }))],
  };
  for (const id of CHART_IDS) addExports(charts[id], exports[id][0], exports[id][1]);

  const loaders: Record<Panel, () => Promise<void>> = {
    prices: loadPrices,
    zones: loadZones,
    flows: loadFlows,
    map: loadMap,
  };
  const due = new Set<Panel>();
  /** Whether the panels were cleared for a range before the selection existed: the next load fills them all. */
  let wasBlocked = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = (...panels: Panel[]) => {
    doc.body.dataset.state = 'loading';
    clearExportErrors(doc);
    for (const p of panels) due.add(p);
    syncUrl();
    markSelection();
    clearTimeout(timer);
    timer = setTimeout(() => {
      const blocked = rangeBlocked();
      if (!blocked && wasBlocked) for (const p of Object.keys(loaders) as Panel[]) due.add(p);
      wasBlocked = blocked;
      const loads = blocked ? [] : [...due].map((p) => loaders[p]());
      due.clear();
      void Promise.all(loads);
    }, DEBOUNCE_MS);
  };
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('change', (e) => {
    const name = (e.target as HTMLInputElement).name;
    if (name === 'zone') later('prices', 'zones');
    else if (name === 'border') later('flows');
    else if (name === 'res') later('prices', 'zones');
    else later('prices', 'zones', 'flows', 'map');
  });
  const showHour = (index: number) => {
    const scope = currentScope();
    if (!scope) return;
    hourMs = mapHours(scope).from + index * HOUR_MS;
    later('map');
  };
  slider.addEventListener('input', () => showHour(Number(slider.value)));
  let playing: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearInterval(playing);
    playing = undefined;
    play.textContent = 'Play';
    play.setAttribute('aria-pressed', 'false');
  };
  play.addEventListener('click', () => {
    if (playing) return stop();
    play.textContent = 'Pause';
    play.setAttribute('aria-pressed', 'true');
    playing = setInterval(() => {
      const next = Number(slider.value) + 1;
      if (next > Number(slider.max)) return stop();
      slider.value = String(next);
      showHour(next);
    }, PLAY_STEP_MS);
  });

  const setClock = (clock: { meta: { resolvedTo?: string | null; upstreamSources?: readonly string[] | null } }) => {
    if (clock.meta.resolvedTo) nowMs = Date.parse(clock.meta.resolvedTo);
    const sources = clock.meta.upstreamSources ?? [];
    if (sources.length) byId('sources').textContent = `Data source: ${sources.join(', ')}.`;
  };
  const readClock = async () => setClock((await request(ClockQuery, {})).clock);
  /** Empties every panel: charts, summaries, the KPI table and the map's colours. */
  const clearPanels = () => {
    for (const chart of Object.values(charts)) {
      chart.clear();
      const dom = chart.getDom();
      for (const key of Object.keys(dom.dataset)) delete dom.dataset[key];
      dom.setAttribute('aria-label', 'No data shown: the range starts before the selection existed');
    }
    for (const node of doc.querySelectorAll('.summary')) node.textContent = '';
    byId('kpi-table').querySelector('tbody')?.replaceChildren();
    map?.show({ label: '', prices: new Map(), flows: new Map() });
  };
  /**
   * Whether the view's range starts before one of its zones or its border existed (the API would
   * answer 422): then the panels are cleared and a notice offers the first whole day that can be shown.
   */
  const rangeBlocked = (): boolean => {
    const notice = byId('range-notice');
    const scope = currentScope();
    const { zones: codes } = readSelection(form);
    const border = selectedBorder();
    const tz = zoneName(scope?.tz ?? 'market');
    const wall = (b: Begun): Begun => ({
      ...b,
      validFrom: b.validFrom ? new Date(toWall(Date.parse(b.validFrom), tz)).toISOString() : null,
    });
    const items = [...zonesBegun.filter((z) => codes.includes(z.code)), ...(border ? [border] : [])].map(wall);
    const early = scope ? earlyStarts(items, scope.range.from) : [];
    if (!early.length) {
      notice.replaceChildren();
      return false;
    }
    clearPanels();
    const firstDay = isoDay(Math.ceil(Math.max(...early.map((e) => e.fromMs)) / DAY_MS) * DAY_MS);
    const move = doc.createElement('button');
    move.type = 'button';
    move.textContent = `Start the range on ${firstDay}`;
    move.addEventListener('click', () => {
      (form.querySelector<HTMLInputElement>('input[name=range][value=custom]') ?? move).click();
      const from = form.elements.namedItem('from') as HTMLInputElement;
      const to = form.elements.namedItem('to') as HTMLInputElement;
      from.value = firstDay;
      if (to.value < firstDay) to.value = firstDay;
      from.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const text = earlyStartText(early, isoDay);
    notice.replaceChildren(text, move);
    failed = text;
    status.textContent = text;
    setState();
    return true;
  };
  /** Every panel from one request when the API serves the view whole, else panel by panel. */
  const loadAll = (): Promise<void> => {
    wasBlocked = rangeBlocked();
    if (wasBlocked) return Promise.resolve();
    const scope = currentScope();
    const border = selectedBorder();
    const { zones, resolution } = readSelection(form);
    if (!scope || !border || !map || !zones.length || !fitsOneRequest(scope, resolution)) {
      return Promise.all([loadPrices(), loadZones(), loadFlows(), loadMap()]).then(() => undefined);
    }
    return track(async () => {
      const ids = { prices: ++seq.prices, zones: ++seq.zones, flows: ++seq.flows, map: ++seq.map };
      const at = mapHourOf(scope);
      const view = await fetchView({
        zones,
        border: border.key,
        scope,
        resolution,
        tomorrow: tomorrow(),
        hourMs: at.hourMs,
        hourLabel: at.label,
      });
      if (ids.prices === seq.prices) showPrices(scope, view.prices, view.tomorrow);
      if (ids.zones === seq.zones) showZones(view.zones);
      if (ids.flows === seq.flows) showFlows(scope, border, view.flows, view.border);
      if (ids.map === seq.map) showMap(view.map, at.hourMs);
    });
  };
  const refresh = () =>
    track(async () => {
      await readClock();
      await loadAll();
    });

  await track(async () => {
    const start = await request(StartQuery, {});
    const catalogue = {
      zones: start.zones.filter((z) => z.validTo === null),
      borders: start.borders
        .filter((b) => b.validTo === null)
        .map((b) => ({
          ...b,
          code: b.key,
          hasFlows: b.coverage.physicalFlows !== null || b.coverage.scheduledFlows !== null,
        })),
    };
    zonesBegun = catalogue.zones;
    setClock(start.clock);
    borders = catalogue.borders;
    const state = readState(doc.defaultView?.location.search ?? '', {
      zones: new Set(catalogue.zones.map((z) => z.code)),
      borders: new Set(borders.map((b) => b.key)),
    });
    hourMs = state.hour ? Date.parse(state.hour) : null;
    applyState(form, state);
    renderZonePicker(byId('zone-list'), catalogue.zones, new Set(state.zones));
    renderBorderPicker(byId<HTMLSelectElement>('border-select'), borders, state.border);
    map = drawMap(
      byId('map'),
      catalogue.zones,
      borders.map((b) => b.key),
      {
        zone: (code) => {
          const box = form.querySelector<HTMLInputElement>(`input[name=zone][value="${code}"]`);
          if (!box || box.checked) return;
          box.checked = true;
          box.dispatchEvent(new Event('change', { bubbles: true }));
        },
        border: (key) => {
          const select = byId<HTMLSelectElement>('border-select');
          select.value = key;
          select.dispatchEvent(new Event('change', { bubbles: true }));
        },
      },
    );
    await loadAll();
    syncUrl();
    performance.mark(FIRST_RENDER_MARK);
  });
  return { refresh };
}
