/**
 * The stored classification columns of one border-hour, computed from its facts with
 * `classifyHour` (src/domain/classification.ts). Pure: shared by `reclassify` and the demo generator
 * so both write identical values.
 */
import {
  type BorderHourInput,
  type ClassificationThresholds,
  type FlowType,
  PRICE_DECIMALS,
  classifyHour,
} from './classification.js';

/** Decimal places kept in hourly zone prices (EUR/MWh): 1e-6, the resolution the classification compares at. */
export const HOURLY_PRICE_DECIMALS = PRICE_DECIMALS;
const SCALE = 10 ** HOURLY_PRICE_DECIMALS;

/**
 * Rounds a time-weighted hourly mean price (EUR/MWh) to 1e-6 EUR/MWh, half away from zero, as the
 * SQL path does with `round(numeric, 6)`. Prices have cent precision, so hourly means never sit
 * near a rounding tie and both paths yield the same double.
 */
export function hourlyMeanPrice(mean: number): number {
  return (Math.sign(mean) * Math.round(Math.abs(mean) * SCALE)) / SCALE + 0;
}

/** Facts of one border-hour in stored orientation A/B; null = not reported. MW and EUR/MWh. */
export interface BorderHourFacts {
  readonly physicalAbMw: number | null;
  readonly physicalBaMw: number | null;
  readonly scheduledAbMw: number | null;
  readonly scheduledBaMw: number | null;
  readonly ntcAbMw: number | null;
  readonly ntcBaMw: number | null;
  /** Hourly time-weighted mean prices of zones A and B, EUR/MWh. */
  readonly priceA: number | null;
  readonly priceB: number | null;
  /** An outage record overlaps the hour. */
  readonly outage: boolean;
}

/** The classification columns of `border_hour`. */
export interface BorderHourClassColumns {
  /** Physical basis (A11), or scheduled (A09) when no physical flow was reported. */
  readonly flowType: FlowType | null;
  readonly exportFromA: boolean | null;
  /** Net flow magnitude in the export direction, MW. */
  readonly netFlowMw: number | null;
  readonly priceAEurMwh: number | null;
  readonly priceBEurMwh: number | null;
  /** true when the classified flow was derived from scheduled exchanges. */
  readonly flowDerived: boolean;
  /** Classification on the scheduled-exchange basis. */
  readonly scheduledFlowType: FlowType | null;
  readonly scheduledExportFromA: boolean | null;
}

/** Builds the classifier input explicitly (object spread is several times slower on Node 20). */
function hourInput(f: BorderHourFacts, flowAbMw: number | null, flowBaMw: number | null): BorderHourInput {
  return {
    priceA: f.priceA,
    priceB: f.priceB,
    flowAbMw,
    flowBaMw,
    ntcAbMw: f.ntcAbMw,
    ntcBaMw: f.ntcBaMw,
    outage: f.outage,
  };
}

/** Classifies one border-hour on the physical (else scheduled) basis and on the scheduled basis. */
export function classifyBorderHour(f: BorderHourFacts, t: ClassificationThresholds): BorderHourClassColumns {
  const physicalReported = f.physicalAbMw !== null || f.physicalBaMw !== null;
  const scheduledReported = f.scheduledAbMw !== null || f.scheduledBaMw !== null;
  const scheduled = classifyHour(hourInput(f, f.scheduledAbMw, f.scheduledBaMw), t);
  const physical = physicalReported ? classifyHour(hourInput(f, f.physicalAbMw, f.physicalBaMw), t) : scheduled;
  return {
    flowType: physical.flowType,
    exportFromA: physical.exportFromA,
    netFlowMw: physical.netFlowMw,
    priceAEurMwh: f.priceA,
    priceBEurMwh: f.priceB,
    flowDerived: !physicalReported && scheduledReported,
    scheduledFlowType: scheduled.flowType,
    scheduledExportFromA: scheduled.exportFromA,
  };
}
