/**
 * Pure data shaping of the dashboard: ranges from the server clock, chunking, series, hourly means.
 * Every instant is epoch milliseconds UTC; prices are EUR/MWh, flows MW.
 */

import { DAY_MS, HOUR_MS } from '../domain/calendar.js';
import { FLOW_TYPES, type FlowType } from '../domain/classification.js';

export { DAY_MS, HOUR_MS };
/** Widest range the API serves at HOURLY resolution (14 days). */
export const HOURLY_CHUNK_MS = 14 * DAY_MS;
/** Widest custom range the dashboard asks for, in days. */
export const MAX_RANGE_DAYS = 92;

/** A half-open UTC range [from, to), epoch ms. */
export interface Range {
  readonly from: number;
  readonly to: number;
}

/** What the range picker holds: a preset of whole UTC days ending today, or custom UTC dates (inclusive). */
export type RangeChoice =
  | { readonly kind: 'days'; readonly days: number }
  | { readonly kind: 'custom'; readonly from: string; readonly to: string };

/** Start of the UTC day of `ms`. */
export const floorDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** `YYYY-MM-DD` of a UTC instant. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(ms) || isoDay(ms) !== text ? null : ms;
}

/**
 * The range of a choice at server time `nowMs` (wall-clock ms of the view's zone, so the range is
 * of that zone too): a preset covers `days` whole days ending with today; a custom choice covers
 * its dates, both inclusive. Returns a message when invalid.
 */
export function resolveChoice(choice: RangeChoice, nowMs: number): Range | string {
  if (choice.kind === 'days') {
    const end = floorDay(nowMs) + DAY_MS;
    return { from: end - choice.days * DAY_MS, to: end };
  }
  const from = parseDay(choice.from);
  const to = parseDay(choice.to);
  if (from === null || to === null) return 'Enter both dates as YYYY-MM-DD.';
  if (to < from) return 'The end date must not be before the start date.';
  if ((to - from) / DAY_MS + 1 > MAX_RANGE_DAYS) return `Pick at most ${MAX_RANGE_DAYS} days.`;
  return { from, to: to + DAY_MS };
}

/**
 * The day after the day of `nowMs` (wall-clock ms of a zone, so a range of that zone): with the
 * market's (CET/CEST) clock, the delivery day whose day-ahead prices are published today.
 */
export const tomorrowOf = (nowMs: number): Range => ({
  from: floorDay(nowMs) + DAY_MS,
  to: floorDay(nowMs) + 2 * DAY_MS,
});

/** Splits a range into consecutive pieces of at most `maxMs`. */
export function chunkRange(range: Range, maxMs: number): Range[] {
  const chunks: Range[] = [];
  for (let from = range.from; from < range.to; from += maxMs)
    chunks.push({ from, to: Math.min(from + maxMs, range.to) });
  return chunks;
}

/** A price as the API returns it. */
export interface PriceRow {
  readonly biddingZone: string;
  readonly datetime: string;
  readonly priceEurMwh: number;
}

/** Points [ms, EUR/MWh] per zone, in time order, for each of `zones` (empty when a zone has none). */
export function priceSeries(rows: readonly PriceRow[], zones: readonly string[]): Map<string, [number, number][]> {
  const series = new Map<string, [number, number][]>(zones.map((z) => [z, []]));
  for (const r of rows) series.get(r.biddingZone)?.push([Date.parse(r.datetime), r.priceEurMwh]);
  for (const points of series.values()) points.sort((a, b) => a[0] - b[0]);
  return series;
}

/** Statistics of one zone's prices over the range, EUR/MWh. */
export interface PriceStats {
  readonly zone: string;
  readonly count: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

/** Count, mean, min and max per zone (zones without prices are left out). */
export function priceStats(series: Map<string, [number, number][]>): PriceStats[] {
  const stats: PriceStats[] = [];
  for (const [zone, points] of series) {
    if (points.length === 0) continue;
    const values = points.map((p) => p[1]);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    stats.push({ zone, count: values.length, mean, min: Math.min(...values), max: Math.max(...values) });
  }
  return stats;
}

/**
 * Mean price per zone and UTC hour of day, as heatmap cells [hour 0-23, zone index, EUR/MWh rounded to
 * 0.01]; hours without prices are left out.
 */
export function hourOfDayMeans(
  series: Map<string, [number, number][]>,
  zones: readonly string[],
  hourOf: (ms: number) => number = (ms) => new Date(ms).getUTCHours(),
): [number, number, number][] {
  const cells: [number, number, number][] = [];
  zones.forEach((zone, index) => {
    const sums = new Array<number>(24).fill(0);
    const counts = new Array<number>(24).fill(0);
    for (const [ms, price] of series.get(zone) ?? []) {
      const hour = hourOf(ms);
      sums[hour] = (sums[hour] ?? 0) + price;
      counts[hour] = (counts[hour] ?? 0) + 1;
    }
    for (let h = 0; h < 24; h++) {
      const n = counts[h] ?? 0;
      if (n > 0) cells.push([h, index, Math.round(((sums[h] ?? 0) / n) * 100) / 100]);
    }
  });
  return cells;
}

/** A flow type as the GraphQL API names it (its enum value). */
export type FlowTypeName = Uppercase<FlowType>;
/** The GraphQL names of the flow types, in the contract's order (the legend's). */
export const FLOW_TYPE_NAMES: readonly FlowTypeName[] = FLOW_TYPES.map((t) => t.toUpperCase() as FlowTypeName);

/** A classified border-hour as the API returns it. */
export interface FlowRow {
  readonly datetime: string;
  readonly biddingZoneFrom: string;
  readonly flowType: FlowTypeName;
  readonly netFlowMw: number;
}

/** A border's hours in time order: instant (ms), signed flow (MW, + = zone A to zone B) and flow type of each. */
export interface DenseFlows {
  readonly hours: number[];
  readonly mw: number[];
  readonly types: FlowTypeName[];
}

/** Signed hourly flows of a border, one entry per hour the API returned, MW positive from `zoneA` to the other zone. */
export function flowSeries(rows: readonly FlowRow[], zoneA: string): DenseFlows {
  const sorted = rows
    .map((r) => ({
      ms: Date.parse(r.datetime),
      mw: (r.biddingZoneFrom === zoneA ? 1 : -1) * r.netFlowMw,
      type: r.flowType,
    }))
    .sort((a, b) => a.ms - b.ms);
  return { hours: sorted.map((r) => r.ms), mw: sorted.map((r) => r.mw), types: sorted.map((r) => r.type) };
}
