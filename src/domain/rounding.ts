/** Rounds to a number of decimals, hiding binary floating-point noise of means. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Prices: 0.0001 EUR/MWh. */
export const roundPrice = (v: number): number => round(v, 4);
/** Flows and capacities: 0.001 MW. */
export const roundMw = (v: number): number => round(v, 3);
/** Nullable variant of a rounding function. */
export const orNull = (f: (v: number) => number) => (v: number | null): number | null => (v === null ? null : f(v));
