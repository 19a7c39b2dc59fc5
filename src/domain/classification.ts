/**
 * Classification of one border-hour against the price gradient (docs/contract.md#flow-classification).
 * Pure: no I/O. Prices in EUR/MWh (hourly time-weighted means), flows and capacities in MW.
 */

/** The four flow types (docs/contract.md#flow-classification), in the contract's order. */
export const FLOW_TYPES = ['convergence', 'congestion', 'counter_intuitive', 'outage'] as const;
/** A flow type. */
export type FlowType = (typeof FLOW_TYPES)[number];

/** Tunable thresholds; see {@link DEFAULT_THRESHOLDS}. Compared at the resolution of {@link COMPARE_RESOLUTION}. */
export interface ClassificationThresholds {
  /** Prices closer than this are equal (coupled zones), EUR/MWh; a spread of exactly eps is equal. */
  readonly epsEurMwh: number;
  /** Share of NTC at or above which a flow counts as at its capacity limit (0..1). */
  readonly congestionShare: number;
  /** A net flow below this magnitude has no direction, MW; a flow of exactly this much has one. */
  readonly minFlowMw: number;
}

/**
 * eps = 0.01 EUR/MWh (coupled zones differ by less); 97 % of NTC is a heuristic with no regulatory
 * source; flows under 1 MW are treated as no flow.
 */
export const DEFAULT_THRESHOLDS: ClassificationThresholds = {
  epsEurMwh: 0.01,
  congestionShare: 0.97,
  minFlowMw: 1,
};

/** Decimal places of the price comparisons (EUR/MWh): hourly mean prices are stored rounded to these. */
export const PRICE_DECIMALS = 6;

/**
 * Units the rules compare in, as integers so that a threshold is met exactly or not at all, whatever
 * binary noise the decimal inputs carry: prices and eps in 1e-6 EUR/MWh, flows, NTC and the minimum
 * flow in 1e-3 MW, the capacity share in 1e-6. Exact for flows and NTC below 9e6 MW.
 */
export const COMPARE_RESOLUTION = { pricePerEurMwh: 10 ** PRICE_DECIMALS, perMw: 1_000, perShare: 1_000_000 } as const;

/** `value` in integer units of `1 / perUnit` (nearest). */
const units = (value: number, perUnit: number): number => Math.round(value * perUnit);

/** Inputs of one border-hour, oriented A/B as the border is stored. Null means not reported. */
export interface BorderHourInput {
  readonly priceA: number | null;
  readonly priceB: number | null;
  readonly flowAbMw: number | null;
  readonly flowBaMw: number | null;
  readonly ntcAbMw: number | null;
  readonly ntcBaMw: number | null;
  /** An outage record covers (part of) the hour. */
  readonly outage: boolean;
}

/** Result for one border-hour; `flowType` null means the hour could not be assessed. */
export interface BorderHourClass {
  readonly flowType: FlowType | null;
  /** true when power moved A->B (A exported), false for B->A, null without a direction. */
  readonly exportFromA: boolean | null;
  /** Net flow magnitude in the direction of export, MW (>= 0); null when no flow was reported. */
  readonly netFlowMw: number | null;
}

/** Net A->B flow in MW from the two directional values, or null when neither was reported. */
export function netAbFlow(flowAbMw: number | null, flowBaMw: number | null): number | null {
  if (flowAbMw === null && flowBaMw === null) return null;
  return (flowAbMw ?? 0) - (flowBaMw ?? 0);
}

/**
 * Classifies one border-hour. Order of rules: outage (record, or NTC 0 in both directions); not
 * assessed without a flow or either price; convergence when |net flow| < minFlowMw (no direction);
 * counter_intuitive when power left the higher-price zone (spread < -eps); congestion when it moved
 * toward the higher price (spread > eps) at >= congestionShare of the NTC of that direction;
 * convergence otherwise (coupled prices with |spread| <= eps, missing NTC). Every comparison is
 * made in the integer units of {@link COMPARE_RESOLUTION}.
 */
export function classifyHour(
  input: BorderHourInput,
  t: ClassificationThresholds = DEFAULT_THRESHOLDS,
): BorderHourClass {
  const { perMw, pricePerEurMwh, perShare } = COMPARE_RESOLUTION;
  const net = netAbFlow(input.flowAbMw, input.flowBaMw);
  const netUnits = units(input.flowAbMw ?? 0, perMw) - units(input.flowBaMw ?? 0, perMw);
  const directed = net !== null && Math.abs(netUnits) >= units(t.minFlowMw, perMw);
  const exportFromA = directed ? netUnits > 0 : null;
  const netFlowMw = net === null ? null : Math.abs(net);
  const base = { exportFromA, netFlowMw };
  if (input.outage || (input.ntcAbMw === 0 && input.ntcBaMw === 0)) return { flowType: 'outage', ...base };
  if (net === null || input.priceA === null || input.priceB === null) return { flowType: null, ...base };
  if (!directed) return { flowType: 'convergence', ...base };
  const [exporterPrice, importerPrice, ntc] = exportFromA
    ? [input.priceA, input.priceB, input.ntcAbMw]
    : [input.priceB, input.priceA, input.ntcBaMw];
  const spread = units(importerPrice, pricePerEurMwh) - units(exporterPrice, pricePerEurMwh);
  const eps = units(t.epsEurMwh, pricePerEurMwh);
  if (spread < -eps) return { flowType: 'counter_intuitive', ...base };
  const ntcUnits = ntc === null ? 0 : units(ntc, perMw);
  if (spread > eps && ntcUnits > 0 && Math.abs(netUnits) * perShare >= units(t.congestionShare, perShare) * ntcUnits) {
    return { flowType: 'congestion', ...base };
  }
  return { flowType: 'convergence', ...base };
}
