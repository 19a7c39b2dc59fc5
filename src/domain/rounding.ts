/** Rounds to a number of decimals, hiding binary floating-point noise of means. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Decimals of prices and price differences: 0.0001 EUR/MWh. */
export const PRICE_DECIMALS = 4;
/** Decimals of flows and capacities (0.001 MW) and energies (0.001 MWh). */
export const MW_DECIMALS = 3;
/** Decimals of percentages: 0.0001 %. */
export const PERCENT_DECIMALS = 4;

/** Prices: 0.0001 EUR/MWh. */
export const roundPrice = (v: number): number => round(v, 4);
/** Flows and capacities: 0.001 MW (energies: 0.001 MWh). */
export const roundMw = (v: number): number => round(v, 3);
/** Percentages: 0.0001 %. */
export const roundPercent = (v: number): number => round(v, 4);
/** Nullable variant of a rounding function. */
export const orNull = (f: (v: number) => number) => (v: number | null): number | null => (v === null ? null : f(v));

/**
 * Price difference `to - from` in EUR/MWh, rounded to 0.0001 after subtracting the unrounded
 * prices; null when either price is missing.
 */
export function roundedPriceDelta(from: number | null, to: number | null): number | null {
  return from === null || to === null ? null : roundPrice(to - from);
}
