/**
 * The dashboard's requests: typed GraphQL documents over a range in the view's time zone, split
 * into the pieces the API serves at each resolution and merged back.
 */
import { allNodes, request } from './api.js';
import { DAY_MS, type FlowRow, HOUR_MS, HOURLY_CHUNK_MS, type PriceRow, type Range } from './data.js';
import type { MapFlow, MapHour } from './map.js';
import type { DashboardMapHourQuery } from './gql/graphql.js';
import {
  FlowDurationQuery,
  FlowSharesQuery,
  FlowsQuery,
  MapHourQuery,
  PriceKpisQuery,
  PricesQuery,
  ScatterQuery,
  ViewQuery,
  ZoneAnalyticsQuery,
} from './queries.js';
import type { DashboardResolution } from './state.js';
import { fromWall, type ViewTz, zoneName } from './time.js';

/** Widest range the API serves at explicit NATIVE resolution (2 days). */
const NATIVE_CHUNK_MS = 2 * DAY_MS;
/** Largest page of prices and of flows the dashboard asks for. */
const PAGE = { prices: 10_000, flows: 5_000 } as const;

/** A range of whole days read in a time zone (wall-clock ms of UTC, the market's or the browser's zone). */
export interface Scope {
  readonly range: Range;
  readonly tz: ViewTz;
}

/** The API arguments of a range: UTC instants, or the zone's date-times without offset and its IANA `timeZone`. */
export function bounds(range: Range, tz: ViewTz): { from: string; to: string; timeZone: string | null } {
  const text = (ms: number) => new Date(ms).toISOString().slice(0, 19);
  return tz === 'UTC'
    ? { from: `${text(range.from)}Z`, to: `${text(range.to)}Z`, timeZone: null }
    : { from: text(range.from), to: text(range.to), timeZone: zoneName(tz) };
}

/** The UTC instants [from, to) of a scope's range, epoch ms. */
export const instants = (scope: Scope): Range => ({
  from: fromWall(scope.range.from, zoneName(scope.tz)),
  to: fromWall(scope.range.to, zoneName(scope.tz)),
});

/**
 * Consecutive pieces of whole days of a scope's range, each at most `capMs` long in real time (a
 * piece over an autumn clock change is an hour longer than its days, so it gets a day fewer).
 */
export function pieces(scope: Scope, capMs: number): Range[] {
  const zone = zoneName(scope.tz);
  const out: Range[] = [];
  for (let from = scope.range.from; from < scope.range.to; ) {
    let to = Math.min(scope.range.to, from + capMs);
    while (to - DAY_MS > from && fromWall(to, zone) - fromWall(from, zone) > capMs) to -= DAY_MS;
    out.push({ from, to });
    from = to;
  }
  return out;
}

/** Prices of `zones` at a resolution (NATIVE in 2-day and HOURLY in 14-day pieces). */
export async function fetchPrices(
  zones: readonly string[],
  scope: Scope,
  resolution: DashboardResolution | 'NATIVE',
): Promise<PriceRow[]> {
  if (!zones.length) return [];
  const size =
    resolution === 'NATIVE' ? NATIVE_CHUNK_MS : resolution === 'HOURLY' ? HOURLY_CHUNK_MS : Number.POSITIVE_INFINITY;
  const pages = await Promise.all(
    pieces(scope, size).map((c) =>
      allNodes(
        async (after) =>
          (
            await request(PricesQuery, {
              zones: [...zones],
              ...bounds(c, scope.tz),
              resolution,
              first: PAGE.prices,
              after,
            })
          ).prices,
      ),
    ),
  );
  return pages.flat();
}

/** Hourly classified flows and the daily flow-type shares of a border. */
export async function fetchFlows(border: string, scope: Scope) {
  const [pages, shares] = await Promise.all([
    Promise.all(
      pieces(scope, HOURLY_CHUNK_MS).map((c) =>
        allNodes(
          async (after) =>
            (await request(FlowsQuery, { border, ...bounds(c, scope.tz), first: PAGE.flows, after })).flows,
        ),
      ),
    ),
    request(FlowSharesQuery, { border, ...bounds(scope.range, scope.tz) }),
  ]);
  return { rows: pages.flat() as FlowRow[], shares: shares.flowTypeSummary.rows };
}

/** Scatter bins `[flow MW, price difference EUR/MWh, hours]`, summed over the pieces of a range. */
function mergeBins(
  rows: readonly { netFlowMw: number; priceDeltaEurMwh: number; count: number }[],
): [number, number, number][] {
  const bins = new Map<string, [number, number, number]>();
  for (const r of rows) {
    const key = `${r.netFlowMw}|${r.priceDeltaEurMwh}`;
    const bin = bins.get(key) ?? [r.netFlowMw, r.priceDeltaEurMwh, 0];
    bin[2] += r.count;
    bins.set(key, bin);
  }
  return [...bins.values()];
}

/** The flow duration curve and the binned flow/price scatter of a border (bins summed over 14-day pieces). */
export async function fetchBorderAnalytics(border: string, scope: Scope) {
  const [duration, scatters] = await Promise.all([
    request(FlowDurationQuery, { border, ...bounds(scope.range, scope.tz) }),
    Promise.all(pieces(scope, HOURLY_CHUNK_MS).map((c) => request(ScatterQuery, { border, ...bounds(c, scope.tz) }))),
  ]);
  return { duration: duration.flowDuration.rows, scatter: mergeBins(scatters.flatMap((s) => s.flowPriceScatter.rows)) };
}

/** Price KPIs, daily counter-intuitive shares and imports/exports of the zones. */
export async function fetchZoneAnalytics(zones: readonly string[], scope: Scope) {
  if (!zones.length) return { kpis: [], ci: [], importExport: [] };
  const args = { zones: [...zones], ...bounds(scope.range, scope.tz) };
  const [kpis, zone] = await Promise.all([request(PriceKpisQuery, args), request(ZoneAnalyticsQuery, args)]);
  return { kpis: kpis.priceKpis.rows, ci: zone.ciShare.rows, importExport: zone.zoneImportExport.rows };
}

/** The UTC hour `[hourMs, hourMs + 1 h)` as the API's arguments. */
const hourBounds = (hourMs: number) => ({
  from: new Date(hourMs).toISOString(),
  to: new Date(hourMs + HOUR_MS).toISOString(),
});

function mapHourOf(
  data: { prices: DashboardMapHourQuery['prices']; flows: DashboardMapHourQuery['flows'] },
  label: string,
): MapHour {
  const prices = new Map(data.prices.edges.map((e) => [e.node.biddingZone, e.node.priceEurMwh]));
  const flows = new Map<string, MapFlow>();
  for (const { node } of data.flows.edges) {
    const border = [node.biddingZoneFrom, node.biddingZoneTo].sort().join('->');
    flows.set(border, {
      border,
      from: node.biddingZoneFrom,
      to: node.biddingZoneTo,
      type: node.flowType,
      mw: node.netFlowMw,
    });
  }
  return { label, prices, flows };
}

/** Every zone's price and every border's flow in the UTC hour starting at `hourMs`. */
export async function fetchMapHour(hourMs: number, label: string): Promise<MapHour> {
  return mapHourOf(await request(MapHourQuery, hourBounds(hourMs)), label);
}

/** True when {@link fetchView} serves a view: the API answers its range whole at its resolution. */
export const fitsOneRequest = (scope: Scope, resolution: DashboardResolution): boolean =>
  pieces(scope, resolution === 'NATIVE' ? NATIVE_CHUNK_MS : HOURLY_CHUNK_MS).length === 1;

/** What a view selects: zones and a border over a scope, tomorrow's delivery day, and the map's hour. */
export interface ViewSelection {
  readonly zones: readonly string[];
  readonly border: string;
  readonly scope: Scope;
  readonly resolution: DashboardResolution;
  readonly tomorrow: Scope;
  readonly hourMs: number;
  readonly hourLabel: string;
}

/**
 * Every panel's data in one request ({@link ViewQuery}; pages beyond the first follow by cursor).
 * Only for a selection with zones whose range {@link fitsOneRequest}.
 */
export async function fetchView(sel: ViewSelection) {
  const range = bounds(sel.scope.range, sel.scope.tz);
  const day = bounds(instants(sel.tomorrow), 'UTC');
  const hour = hourBounds(sel.hourMs);
  const zones = [...sel.zones];
  const data = await request(ViewQuery, {
    zones,
    border: sel.border,
    ...range,
    resolution: sel.resolution,
    tomorrowFrom: day.from,
    tomorrowTo: day.to,
    mapFrom: hour.from,
    mapTo: hour.to,
    pricesFirst: PAGE.prices,
    flowsFirst: PAGE.flows,
  });
  const [prices, tomorrow, flows] = await Promise.all([
    allNodes(
      async (after) =>
        (await request(PricesQuery, { zones, ...range, resolution: sel.resolution, first: PAGE.prices, after })).prices,
      data.prices,
    ),
    allNodes(
      async (after) =>
        (await request(PricesQuery, { zones, ...day, resolution: 'NATIVE', first: PAGE.prices, after })).prices,
      data.tomorrow,
    ),
    allNodes(
      async (after) => (await request(FlowsQuery, { border: sel.border, ...range, first: PAGE.flows, after })).flows,
      data.flows,
    ),
  ]);
  return {
    prices: prices as PriceRow[],
    tomorrow: tomorrow as PriceRow[],
    zones: { kpis: data.priceKpis.rows, ci: data.ciShare.rows, importExport: data.zoneImportExport.rows },
    flows: { rows: flows as FlowRow[], shares: data.flowTypeSummary.rows },
    border: { duration: data.flowDuration.rows, scatter: mergeBins(data.flowPriceScatter.rows) },
    map: mapHourOf({ prices: data.mapPrices, flows: data.mapFlows }, sel.hourLabel),
  };
}
