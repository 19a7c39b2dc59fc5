/**
 * The demo data set: 30 real bidding zones and every catalogue border between them, generated
 * deterministically from a seed and an explicit clock (the generator never reads the time).
 */
import { type ClassificationThresholds, DEFAULT_THRESHOLDS } from '../domain/classification.js';
import { type DemoRange, HOUR_MS, demoRange } from './calendar.js';
import { type BorderFlows, borderFlows } from './flows.js';
import {
  type HourSpan,
  borderHours,
  joinedBorders,
  mergedBorderFlows,
  mergedBorders,
  mergedPrices,
  mergedZones,
  zoneHours,
} from './history.js';
import { type DemoOutage, demoOutages, outageHours } from './outages.js';
import { type PriceGrid, type ZonePrices, coupledPriceSteps, priceGrid } from './prices.js';
import { drain } from './steps.js';
import { type BorderProfile, DEMO_PROFILES, demoBorders } from './profiles.js';

/** Seed of the shipped demo data set. */
export const DEMO_SEED = 20251001;

/** What to generate. */
export interface DemoOptions {
  /** The clock: physical flows up to this instant, prices, schedules and NTC to the end of tomorrow UTC. */
  readonly now: Date;
  /** First day (UTC) of the data set; default the 1st of the month of now − 430 days. */
  readonly from?: Date;
  /** Random seed; default {@link DEMO_SEED}. */
  readonly seed?: number;
  /** Thresholds of the stored flow classification (the CLASSIFY_* settings); default {@link DEFAULT_THRESHOLDS}. */
  readonly thresholds?: ClassificationThresholds;
}

/** The generated demo market, keyed by zone code and border index (no database ids). */
export interface DemoDataSet {
  readonly seed: number;
  readonly range: DemoRange;
  /** Number of hours in [range.start, range.end). */
  readonly hours: number;
  /** Zone codes, in the order of {@link prices}: the demo zones, then zones of the past shown for their period (DE_AT_LU). */
  readonly zones: readonly string[];
  /** The demo borders, then borders of the past (DE_AT_LU's), in the order of {@link flows}. */
  readonly borders: readonly BorderProfile[];
  /**
   * The hours in which each zone (order of {@link prices}) and each border (order of {@link borders})
   * exists (src/domain/catalogue-history.ts): its rows are for these hours only.
   */
  readonly valid: { readonly zones: readonly HourSpan[]; readonly borders: readonly HourSpan[] };
  readonly grid: PriceGrid;
  /** Per zone, prices at native resolution (EUR/MWh). */
  readonly prices: readonly ZonePrices[];
  /** Per border, hourly facts (MW) and classification (a border of the past: over its hours only). */
  readonly flows: readonly BorderFlows[];
  readonly outages: readonly DemoOutage[];
}

/** Generates the demo data set; the same options always give the same data. */
export function generateDemo(options: DemoOptions): DemoDataSet {
  return drain(demoSteps(options));
}

/**
 * {@link generateDemo} in steps of at most about 100 ms (a month of prices, a border's flows), for
 * `drainYielding`: the same options give the same data.
 */
export function* demoSteps(options: DemoOptions): Generator<void, DemoDataSet> {
  const seed = options.seed ?? DEMO_SEED;
  const range = demoRange(options.now, options.from);
  const hours = (range.end - range.start) / HOUR_MS;
  const borders = demoBorders(seed);
  const grid = priceGrid(range.start, hours);
  const merged = mergedZones(DEMO_PROFILES, range.start, hours);
  const coupled = yield* coupledPriceSteps(DEMO_PROFILES, borders, grid, seed, joinedBorders(merged, borders));
  const prices = [...coupled, ...merged.map((m) => mergedPrices(m, coupled))];
  const outages = demoOutages(borders, range.start, range.end, seed);
  const flags = outageHours(outages, borders.length, range.start, hours);
  const pastHours = (range.physicalEnd - range.start) / HOUR_MS;
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const flows: BorderFlows[] = [];
  for (const [j, b] of borders.entries()) {
    flows.push(borderFlows(j, b, coupled, flags[j] as Uint8Array, pastHours, seed, thresholds));
    yield;
  }
  const zones = prices.map((p) => p.code);
  const past = mergedBorders(merged, new Map(zones.map((c, i) => [c, i])), DEMO_PROFILES, borders);
  for (const [i, mb] of past.entries()) {
    flows.push(mergedBorderFlows(borders.length + i, mb, flows, flags, prices, thresholds));
    yield;
  }
  const allBorders = [...borders, ...past.map((mb) => mb.profile)];
  const valid = {
    zones: zones.map((code) => zoneHours(code, range.start, hours)),
    borders: allBorders.map((b) => borderHours(b.a, b.b, range.start, hours)),
  };
  return { seed, range, hours, zones, borders: allBorders, valid, grid, prices, flows, outages };
}
