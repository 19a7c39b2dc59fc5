/**
 * Classification of one border-hour against the price gradient (DESIGN.md "Flow classification").
 * Pure: no I/O. Prices in EUR/MWh (hourly time-weighted means), flows and capacities in MW.
 */

/** The four flow types of the spec, section 3. */
export type FlowType = 'convergence' | 'congestion' | 'counter_intuitive' | 'outage';

/** Tunable thresholds; see {@link DEFAULT_THRESHOLDS}. */
export interface ClassificationThresholds {
  /** Prices closer than this are equal (coupled zones), EUR/MWh. */
  readonly epsEurMwh: number;
  /** Share of NTC at or above which a flow counts as at its capacity limit (0..1). */
  readonly congestionShare: number;
  /** A net flow below this magnitude has no direction, MW. */
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
 * assessed without a flow or either price; counter_intuitive when power left the higher-price zone
 * (spread < -eps); congestion when it moved toward the higher price at >= congestionShare of the NTC
 * of that direction; convergence otherwise (including coupled prices, near-zero flow, missing NTC).
 */
export function classifyHour(
  input: BorderHourInput,
  t: ClassificationThresholds = DEFAULT_THRESHOLDS,
): BorderHourClass {
  const net = netAbFlow(input.flowAbMw, input.flowBaMw);
  const directed = net !== null && Math.abs(net) >= t.minFlowMw;
  const exportFromA = directed ? net > 0 : null;
  const netFlowMw = net === null ? null : Math.abs(net);
  const base = { exportFromA, netFlowMw };
  if (input.outage || (input.ntcAbMw === 0 && input.ntcBaMw === 0)) return { flowType: 'outage', ...base };
  if (net === null || input.priceA === null || input.priceB === null) return { flowType: null, ...base };
  if (!directed) return { flowType: 'convergence', ...base };
  const [exporterPrice, importerPrice, ntc] = exportFromA
    ? [input.priceA, input.priceB, input.ntcAbMw]
    : [input.priceB, input.priceA, input.ntcBaMw];
  const spread = importerPrice - exporterPrice;
  if (spread < -t.epsEurMwh) return { flowType: 'counter_intuitive', ...base };
  if (spread > t.epsEurMwh && ntc !== null && ntc > 0 && Math.abs(net) >= t.congestionShare * ntc) {
    return { flowType: 'congestion', ...base };
  }
  return { flowType: 'convergence', ...base };
}
