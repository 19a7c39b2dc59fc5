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

/** Decimals of prices and price differences: 0.0001 EUR/MWh. */
export const PRICE_DECIMALS = 4;
/** Decimals of flows and capacities (0.001 MW) and energies (0.001 MWh). */
export const MW_DECIMALS = 3;
/** Decimals of percentages: 0.0001 %. */
export const PERCENT_DECIMALS = 4;
