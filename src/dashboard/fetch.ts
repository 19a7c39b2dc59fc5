/**
 * The dashboard's requests: typed GraphQL documents over a range in the view's time zone, split
 * into the pieces the API serves at each resolution and merged back.
 */
import { allNodes, request } from './api.js';
import { chunkRange, DAY_MS, type FlowRow, HOUR_MS, HOURLY_CHUNK_MS, type PriceRow, type Range } from './data.js';
import type { MapFlow, MapHour } from './map.js';
import { FlowDurationQuery, FlowSharesQuery, FlowsQuery, MapHourQuery, PriceKpisQuery, PricesQuery, ScatterQuery, ZoneAnalyticsQuery } from './queries.js';
import type { DashboardResolution, ViewTz } from './state.js';

/** Widest range the API serves at explicit NATIVE resolution (2 days). */
const NATIVE_CHUNK_MS = 2 * DAY_MS;

/** A range of whole days read in a time zone: the browser's IANA zone for `local`, UTC otherwise. */
export interface Scope {
  readonly range: Range;
  readonly tz: ViewTz;
}

/** The IANA name of the browser's time zone. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The API arguments of a range: UTC instants, or local date-times without offset and `timeZone`. */
export function bounds(range: Range, tz: ViewTz): { from: string; to: string; timeZone: string | null } {
  const text = (ms: number) => new Date(ms).toISOString().slice(0, 19);
  return tz === 'UTC'
    ? { from: `${text(range.from)}Z`, to: `${text(range.to)}Z`, timeZone: null }
    : { from: text(range.from), to: text(range.to), timeZone: browserZone() };
}

/** Prices of `zones` at a resolution (NATIVE in 2-day and HOURLY in 14-day pieces). */
export async function fetchPrices(zones: readonly string[], scope: Scope, resolution: DashboardResolution | 'NATIVE'): Promise<PriceRow[]> {
  if (!zones.length) return [];
  const size = resolution === 'NATIVE' ? NATIVE_CHUNK_MS : resolution === 'HOURLY' ? HOURLY_CHUNK_MS : scope.range.to - scope.range.from;
  const pages = await Promise.all(
    chunkRange(scope.range, size).map((c) =>
      allNodes(async (after) => (await request(PricesQuery, { zones: [...zones], ...bounds(c, scope.tz), resolution, first: 10_000, after })).prices),
    ),
  );
  return pages.flat();
}

/** Hourly classified flows and the daily flow-type shares of a border. */
export async function fetchFlows(border: string, scope: Scope) {
  const [pages, shares] = await Promise.all([
    Promise.all(chunkRange(scope.range, HOURLY_CHUNK_MS).map((c) => allNodes(async (after) => (await request(FlowsQuery, { border, ...bounds(c, scope.tz), first: 5_000, after })).flows))),
    request(FlowSharesQuery, { border, ...bounds(scope.range, scope.tz) }),
  ]);
  return { rows: pages.flat() as FlowRow[], shares: shares.flowTypeSummary.rows };
}

/** The flow duration curve and the binned flow/price scatter of a border (bins summed over 14-day pieces). */
export async function fetchBorderAnalytics(border: string, scope: Scope) {
  const [duration, scatters] = await Promise.all([
    request(FlowDurationQuery, { border, ...bounds(scope.range, scope.tz) }),
    Promise.all(chunkRange(scope.range, HOURLY_CHUNK_MS).map((c) => request(ScatterQuery, { border, ...bounds(c, scope.tz) }))),
  ]);
  const bins = new Map<string, [number, number, number]>();
  for (const r of scatters.flatMap((s) => s.flowPriceScatter.rows)) {
    const key = `${r.netFlowMw}|${r.priceDeltaEurMwh}`;
    const bin = bins.get(key) ?? [r.netFlowMw, r.priceDeltaEurMwh, 0];
    bin[2] += r.count;
    bins.set(key, bin);
  }
  return { duration: duration.flowDuration.rows, scatter: [...bins.values()] };
}

/** Price KPIs, daily counter-intuitive shares and imports/exports of the zones. */
export async function fetchZoneAnalytics(zones: readonly string[], scope: Scope) {
  if (!zones.length) return { kpis: [], ci: [], importExport: [] };
  const args = { zones: [...zones], ...bounds(scope.range, scope.tz) };
  const [kpis, zone] = await Promise.all([request(PriceKpisQuery, args), request(ZoneAnalyticsQuery, args)]);
  return { kpis: kpis.priceKpis.rows, ci: zone.ciShare.rows, importExport: zone.zoneImportExport.rows };
}

/** Every zone's price and every border's flow in the UTC hour starting at `hourMs`. */
export async function fetchMapHour(hourMs: number, label: string): Promise<MapHour> {
  const data = await request(MapHourQuery, { from: new Date(hourMs).toISOString(), to: new Date(hourMs + HOUR_MS).toISOString() });
  const prices = new Map(data.prices.edges.map((e) => [e.node.biddingZone, e.node.priceEurMwh]));
  const flows = new Map<string, MapFlow>();
  for (const { node } of data.flows.edges) {
    const border = [node.biddingZoneFrom, node.biddingZoneTo].sort().join('->');
    flows.set(border, { border, from: node.biddingZoneFrom, to: node.biddingZoneTo, type: node.flowType, mw: node.netFlowMw });
  }
  return { label, prices, flows };
}
