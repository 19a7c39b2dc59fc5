/**
 * Coupled day-ahead prices of the demo zones at native resolution (60 min before 2025-10-01,
 * 15 min from then), EUR/MWh with cent precision, with short gaps filled by linear interpolation.
 */
import { hourlyMeanPrice } from '../domain/border-class.js';
import { HOUR_MS, MINUTE_MS, periodMinutesAt } from './calendar.js';
import { clusterPrices, congestedBorders, priceClusters } from './coupling.js';
import { isolatedPrices } from './fundamentals.js';
import type { BorderProfile, ZoneProfile } from './profiles.js';
import { Rng } from './rng.js';

/** The period grid shared by all zones. */
export interface PriceGrid {
  /** Period start per period, epoch ms UTC. */
  readonly periodStart: Float64Array;
  /** Period length per period, minutes. */
  readonly periodMinutes: Uint8Array;
  /** Index of the first period of hour k (length hours + 1). */
  readonly hourFirst: Int32Array;
}

/** One zone's prices on the grid. */
export interface ZonePrices {
  readonly code: string;
  /** EUR/MWh per period, rounded to cents. */
  readonly price: Float64Array;
  /** 1 where the period was missing and filled by interpolation. */
  readonly interpolated: Uint8Array;
  /** Time-weighted hourly mean (the classification's hourly price), EUR/MWh per hour. */
  readonly hourly: Float64Array;
  /** Isolated (uncoupled) hourly price, EUR/MWh: drives flow directions between coupled zones. */
  readonly isolated: Float64Array;
}

const cents = (x: number): number => Math.round(x * 100) / 100 + 0;

/** Builds the period grid for `hours` hours from `start`. */
export function priceGrid(start: number, hours: number): PriceGrid {
  const hourFirst = new Int32Array(hours + 1);
  const starts: number[] = [];
  const minutes: number[] = [];
  for (let k = 0; k < hours; k++) {
    hourFirst[k] = starts.length;
    const h = start + k * HOUR_MS;
    const m = periodMinutesAt(h);
    for (let t = h; t < h + HOUR_MS; t += m * MINUTE_MS) {
      starts.push(t);
      minutes.push(m);
    }
  }
  hourFirst[hours] = starts.length;
  return { periodStart: Float64Array.from(starts), periodMinutes: Uint8Array.from(minutes), hourFirst };
}

/** Native-period isolated prices: the hourly value plus a within-hour ramp and a little noise. */
function periodIsolated(iso: Float64Array, k: number, q: number, n: number, noise: number, rng: Rng): number {
  const v = iso[k] as number;
  if (n === 1) return v;
  const slope = ((iso[Math.min(iso.length - 1, k + 1)] as number) - (iso[Math.max(0, k - 1)] as number)) / 2;
  return v + slope * ((q + 0.5) / n - 0.5) + 0.15 * noise * rng.normal();
}

function fillGaps(price: Float64Array, interpolated: Uint8Array, count: number, rng: Rng): void {
  for (let g = 0; g < count; g++) {
    const len = rng.int(1, 3);
    const i = rng.int(1, price.length - len - 1);
    const before = price[i - 1] as number;
    const after = price[i + len] as number;
    for (let j = 0; j < len; j++) {
      price[i + j] = cents(before + ((after - before) * (j + 1)) / (len + 1));
      interpolated[i + j] = 1;
    }
  }
}

function hourlyMeans(grid: PriceGrid, price: Float64Array): Float64Array {
  const hours = grid.hourFirst.length - 1;
  const out = new Float64Array(hours);
  for (let k = 0; k < hours; k++) {
    let sum = 0;
    let minutes = 0;
    for (let i = grid.hourFirst[k] as number; i < (grid.hourFirst[k + 1] as number); i++) {
      sum += (price[i] as number) * (grid.periodMinutes[i] as number);
      minutes += grid.periodMinutes[i] as number;
    }
    out[k] = hourlyMeanPrice(sum / minutes);
  }
  return out;
}

/** Hours of prices computed between two steps of {@link coupledPriceSteps} (about 40 ms). */
const HOURS_PER_STEP = 24 * 30;

/**
 * Coupled prices of all zones on the grid (epoch ms UTC periods). Each hour, zones joined by
 * uncongested borders share one price; about two short gaps per zone and month are filled by
 * interpolation and flagged. A `joined` border (inside a zone of the past, e.g. AT–DE_LU inside
 * DE_AT_LU) never congests before hour `until`. Yields after each {@link HOURS_PER_STEP} hours, so a caller can let
 * other work run in between (`drain` runs it at once).
 */
export function* coupledPriceSteps(
  profiles: readonly ZoneProfile[],
  borders: readonly BorderProfile[],
  grid: PriceGrid,
  seed: number,
  joined: readonly { readonly border: number; readonly until: number }[] = [],
): Generator<void, ZonePrices[]> {
  const hours = grid.hourFirst.length - 1;
  const start = grid.periodStart[0] as number;
  const iso = isolatedPrices(profiles, start, hours, seed);
  const rng = new Rng(seed, 'coupling');
  const n = profiles.length;
  const weights = profiles.map((p) => p.weight);
  const prices = profiles.map(() => new Float64Array(grid.periodStart.length));
  const hourIso = new Float64Array(n);
  const periodIso = new Float64Array(n);
  const out = new Float64Array(n);
  for (let k = 0; k < hours; k++) {
    for (let z = 0; z < n; z++) hourIso[z] = iso[z]?.[k] as number;
    const congested = congestedBorders(hourIso, borders, rng);
    for (const j of joined) if (k < j.until) congested[j.border] = 0;
    const roots = priceClusters(n, borders, congested);
    const first = grid.hourFirst[k] as number;
    const count = (grid.hourFirst[k + 1] as number) - first;
    for (let q = 0; q < count; q++) {
      for (let z = 0; z < n; z++)
        periodIso[z] = periodIsolated(iso[z] as Float64Array, k, q, count, profiles[z]?.noise ?? 0, rng);
      clusterPrices(periodIso, weights, roots, out);
      for (let z = 0; z < n; z++) (prices[z] as Float64Array)[first + q] = cents(out[z] as number);
    }
    if (k % HOURS_PER_STEP === HOURS_PER_STEP - 1) yield;
  }
  const months = hours / (24 * 30);
  return profiles.map((p, z) => {
    const price = prices[z] as Float64Array;
    const interpolated = new Uint8Array(price.length);
    fillGaps(price, interpolated, Math.max(1, Math.round(2 * months)), new Rng(seed, `gaps:${p.code}`));
    return { code: p.code, price, interpolated, hourly: hourlyMeans(grid, price), isolated: iso[z] as Float64Array };
  });
}
