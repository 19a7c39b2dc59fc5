/**
 * Drawing the panels from loaded data: prices (lines, heatmap, tomorrow), the zones' KPIs,
 * counter-intuitive share and trade, the border's flows and analytics, and the map's hour. Charts'
 * axes read wall-clock ms of the view's time zone.
 */
import { readSelection, type BorderOption } from './controls.js';
import { type DenseFlows, type FlowRow, flowSeries, hourOfDayMeans, type PriceRow, priceSeries } from './data.js';
import type { fetchBorderAnalytics, fetchZoneAnalytics, Scope } from './fetch.js';
import type { EuropeMap, MapHour } from './map.js';
import { byId, type Charts } from './page.js';
import { renderBorderAnalytics, renderCi, renderKpis, renderTrade } from './panels.js';
import { renderFlows, renderPrices, renderTomorrow } from './render.js';
import type { ScopeReader } from './scope.js';
import type { DashboardResolution } from './state.js';
import { toWall, zoneName } from './time.js';

const RESOLUTION_WORD = { NATIVE: 'native', HOURLY: 'hourly', DAILY: 'daily' } as const;

/** The zones' analytics as loaded. */
export type ZoneAnalytics = Awaited<ReturnType<typeof fetchZoneAnalytics>>;
/** The border's duration curve and scatter as loaded. */
export type BorderAnalytics = Awaited<ReturnType<typeof fetchBorderAnalytics>>;
/** The border's hourly flows and daily flow-type shares as loaded. */
export interface BorderFlows {
  readonly rows: readonly FlowRow[];
  readonly shares: Parameters<typeof renderFlows>[2]['shares'];
}
/** The scatter's bins on screen (merged over the range's pieces): what its CSV holds. */
export interface ShownScatter {
  readonly a: string;
  readonly b: string;
  readonly bins: readonly [number, number, number][];
}

/** Series of instants (UTC ms) as wall-clock ms of `zone`, what the charts' axes read. */
export const onClock = (series: Map<string, [number, number][]>, zone: string): Map<string, [number, number][]> =>
  new Map([...series].map(([z, points]) => [z, points.map(([ms, v]) => [toWall(ms, zone), v] as [number, number])]));

/** Flows with their hours as wall-clock ms of `zone`. */
export const wallFlows = (flows: DenseFlows, zone: string): DenseFlows => ({
  ...flows,
  hours: flows.hours.map((ms) => toWall(ms, zone)),
});

/** The KPI table's title: KPIs are over hourly means, also under the native resolution. */
export const kpiTitle = (resolution: DashboardResolution): string =>
  resolution === 'NATIVE'
    ? 'Price KPIs (EUR/MWh, over hourly means: the API computes KPIs per hour, also under Native)'
    : 'Price KPIs (EUR/MWh, over hourly means)';

/** The map's colour scale in words: the hour's lowest to highest price, EUR/MWh. */
export function mapScaleText(hour: MapHour): string {
  const values = [...hour.prices.values()];
  return values.length ? `${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)} EUR/MWh` : 'no prices';
}

/** The map's hour in words: how many zones and borders it shows, and the flows against the price signal. */
export function mapSummaryText(hour: MapHour): string {
  const against = [...hour.flows.values()].filter((f) => f.type === 'COUNTER_INTUITIVE');
  const which = against.length ? ` (${against.map((f) => `${f.from} → ${f.to}`).join(', ')})` : '';
  return `${hour.label}: prices for ${hour.prices.size} zones, flows at ${hour.flows.size} borders; ${against.length} against the price signal${which}.`;
}

/** Draws the panels. */
export interface PanelViews {
  /** The price lines, the heatmap and tomorrow's prices. */
  prices(scope: Scope, rows: readonly PriceRow[], next: readonly PriceRow[]): void;
  /** The KPI table, the counter-intuitive share and imports/exports. */
  zones(data: ZoneAnalytics): void;
  /** The border's flows, flow-type shares, duration curve and scatter. */
  flows(scope: Scope, border: BorderOption, flows: BorderFlows, analytics: BorderAnalytics): void;
  /** The map's hour `at` (UTC ms). */
  map(hour: MapHour, at: number): void;
  /** Marks the selected zones and border on the map. */
  markSelection(): void;
  /** Empties every panel: charts, summaries, the KPI table and the map's colours. */
  clear(): void;
  /** The scatter on screen (null: none yet). */
  shownScatter(): ShownScatter | null;
}

/** The page's context of the views. */
export interface ViewContext {
  readonly doc: Document;
  readonly form: HTMLFormElement;
  readonly charts: Charts;
  readonly scope: ScopeReader;
  /** The map once drawn. */
  readonly map: () => EuropeMap | null;
}

/** The panel views of the page. */
export function createPanelViews({ doc, form, charts, scope, map }: ViewContext): PanelViews {
  let scatter: ShownScatter | null = null;
  const prices = (view: Scope, rows: readonly PriceRow[], next: readonly PriceRow[]) => {
    const { zones, resolution } = readSelection(form);
    const name = zoneName(view.tz);
    const series = onClock(priceSeries(rows, zones), name);
    renderPrices(charts.prices, charts.heatmap, {
      zones,
      range: view.range,
      series,
      cells: hourOfDayMeans(series, zones),
      kind: RESOLUTION_WORD[resolution],
      tzName: name,
    });
    renderTomorrow(charts.tomorrow, {
      zones,
      day: scope.tomorrow().range,
      series: onClock(priceSeries(next, zones), name),
      tzName: name,
    });
  };
  const zones = (data: ZoneAnalytics) => {
    const { zones: codes, resolution } = readSelection(form);
    byId('kpi-title').textContent = kpiTitle(resolution);
    renderKpis(byId('kpi-table').querySelector('tbody') ?? byId('kpi-table'), codes, data.kpis);
    renderCi(charts.ci, byId('ci-summary'), codes, data.ci);
    renderTrade(charts.trade, data.importExport);
  };
  const flows = (view: Scope, border: BorderOption, loaded: BorderFlows, analytics: BorderAnalytics) => {
    renderFlows(charts.flows, charts.shares, {
      border,
      range: view.range,
      flows: wallFlows(flowSeries(loaded.rows, border.zoneA.code), zoneName(view.tz)),
      hours: loaded.rows.length,
      shares: loaded.shares,
      tzName: zoneName(view.tz),
    });
    renderBorderAnalytics(charts.duration, charts.scatter, border.zoneA.code, border.zoneB.code, analytics);
    scatter = { a: border.zoneA.code, b: border.zoneB.code, bins: analytics.scatter };
  };
  const markSelection = () => {
    const sel = readSelection(form);
    for (const g of byId('map').querySelectorAll<SVGGElement>('.zone'))
      g.classList.toggle('selected', sel.zones.includes(g.dataset.zone ?? ''));
    for (const g of byId('map').querySelectorAll<SVGGElement>('.border'))
      g.classList.toggle('selected', g.dataset.border === sel.border);
  };
  const showMap = (hour: MapHour, at: number) => {
    map()?.show(hour);
    markSelection();
    byId('map-scale').textContent = mapScaleText(hour);
    byId('map-summary').textContent = mapSummaryText(hour);
    byId('map').dataset.hour = new Date(at).toISOString();
  };
  const clear = () => {
    for (const chart of Object.values(charts)) {
      chart.clear();
      const dom = chart.getDom();
      for (const key of Object.keys(dom.dataset)) delete dom.dataset[key];
      dom.setAttribute('aria-label', 'No data shown: the range starts before the selection existed');
    }
    for (const node of doc.querySelectorAll('.summary')) node.textContent = '';
    byId('kpi-table').querySelector('tbody')?.replaceChildren();
    map()?.show({ label: '', prices: new Map(), flows: new Map() });
  };
  return { prices, zones, flows, map: showMap, markSelection, clear, shownScatter: () => scatter };
}
