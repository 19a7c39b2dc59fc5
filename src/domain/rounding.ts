/** Rounds to a number of decimals, hiding binary floating-point noise of means. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** {@link round} to a fixed number of decimals, its power of ten computed once (for row serialisers). */
export function rounder(decimals: number): (value: number) => number {
  const f = 10 ** decimals;
  return (value) => Math.round(value * f) / f;
}

/**
 * Decimals both surfaces write prices and price differences with: 0.0001 EUR/MWh. Only the written
 * form: hourly mean prices are computed, stored and compared (against eps = 0.01 EUR/MWh) at
 * classification.ts PRICE_DECIMALS, 1e-6 EUR/MWh.
 */
export const WIRE_PRICE_DECIMALS = 4;
/** Decimals of flows and capacities (0.001 MW) and energies (0.001 MWh). */
export const MW_DECIMALS = 3;
/** Decimals of durations in hours: 0.0001 h (under half a second). */
export const HOUR_DECIMALS = 4;
/** Decimals of percentages: 0.0001 %. */
export const PERCENT_DECIMALS = 4;

/** Percentage of part in total (0 when total is 0), rounded to 0.0001 (%). */
export function percentOf(part: number, total: number): number {
  return total > 0 ? Math.round((1e6 * part) / total) / 1e4 : 0;
}
