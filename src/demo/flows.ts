/**
 * Hourly border facts of the demo (MW, stored orientation A<B): NTC per direction, scheduled
 * exchanges that follow the coupled prices (at the limit where prices split; a few against them,
 * as explicit or long-term nominations do), physical flows around the schedules with loop flows
 * against the price gradient, outages at zero capacity,
 * short interpolated gaps, and no physical flow for hours not completed yet.
 */
import { type BorderHourClassColumns, classifyBorderHour } from '../domain/border-class.js';
import type { ClassificationThresholds } from '../domain/classification.js';
import type { BorderProfile } from './profiles.js';
import type { ZonePrices } from './prices.js';
import { Rng } from './rng.js';

/** One border's hourly series; NaN means not reported. */
export interface BorderFlows {
  /** Index into the demo border list. */
  readonly border: number;
  readonly physicalAb: Float64Array;
  readonly physicalBa: Float64Array;
  readonly physicalInterpolated: Uint8Array;
  readonly scheduledAb: Float64Array;
  readonly scheduledBa: Float64Array;
  readonly ntcAb: Float64Array;
  readonly ntcBa: Float64Array;
  /** Stored classification per hour (with the thresholds the data set was generated with). */
  readonly classes: BorderHourClassColumns[];
}

/** MW rounded to a tenth (no negative zero). */
export const tenth = (x: number): number => Math.round(x * 10) / 10 + 0;

interface HourContext {
  readonly b: BorderProfile;
  readonly pa: ZonePrices;
  readonly pb: ZonePrices;
  readonly rng: Rng;
}

/** Scheduled and physical net A->B flows of one non-outage hour, MW. */
function netFlows(ctx: HourContext, k: number, ntcAb: number, ntcBa: number): { scheduled: number; physical: number } {
  const { pa, pb, rng, b } = ctx;
  const priceA = pa.hourly[k] as number;
  const priceB = pb.hourly[k] as number;
  const coupled = Math.abs(priceA - priceB) < 0.005;
  const towardB = coupled ? (pa.isolated[k] as number) < (pb.isolated[k] as number) : priceA < priceB;
  const util = coupled ? rng.range(0.05, 0.9) : rng.chance(0.05) ? rng.range(0.5, 0.95) : rng.range(0.97, 1);
  const limit = towardB ? ntcAb : ntcBa;
  if (!coupled && rng.chance(b.adverseScheduleProb)) {
    const against = (towardB ? -1 : 1) * rng.range(0.1, 0.6) * (towardB ? ntcBa : ntcAb);
    return { scheduled: against, physical: against + 0.04 * limit * rng.normal() };
  }
  const scheduled = (towardB ? 1 : -1) * util * limit;
  if (rng.chance(b.loopProb)) {
    const reverse = towardB ? ntcBa : ntcAb;
    return { scheduled, physical: (towardB ? -1 : 1) * rng.range(0.05, 0.5) * reverse };
  }
  return { scheduled, physical: scheduled + 0.04 * limit * rng.normal() };
}

function fillFlowGaps(f: BorderFlows, pastHours: number, count: number, rng: Rng): void {
  for (let g = 0; g < count && pastHours > 8; g++) {
    const len = rng.int(1, 3);
    const i = rng.int(1, pastHours - len - 1);
    for (const series of [f.physicalAb, f.physicalBa]) {
      const before = series[i - 1] as number;
      const after = series[i + len] as number;
      for (let j = 0; j < len; j++) series[i + j] = tenth(before + ((after - before) * (j + 1)) / (len + 1));
    }
    for (let j = 0; j < len; j++) f.physicalInterpolated[i + j] = 1;
  }
}

/** A generated value, or null where it is NaN (not reported). */
export const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/**
 * The stored classification of hour `k` of a border's series `f`, with the hourly prices (EUR/MWh)
 * of its zones A and B: the one classification input of the demo's current and merged borders.
 */
export function classifyFlowHour(
  f: BorderFlows,
  k: number,
  pa: ZonePrices,
  pb: ZonePrices,
  outage: boolean,
  thresholds: ClassificationThresholds,
): BorderHourClassColumns {
  return classifyBorderHour(
    {
      physicalAbMw: orNull(f.physicalAb[k] as number),
      physicalBaMw: orNull(f.physicalBa[k] as number),
      scheduledAbMw: f.scheduledAb[k] as number,
      scheduledBaMw: f.scheduledBa[k] as number,
      ntcAbMw: f.ntcAb[k] as number,
      ntcBaMw: f.ntcBa[k] as number,
      priceA: pa.hourly[k] as number,
      priceB: pb.hourly[k] as number,
      outage,
    },
    thresholds,
  );
}

/**
 * The series of border `j` over `hours` hours, every value 0 but the physical flows, which are
 * `physical` (MW; NaN: not reported) until filled in; no classes yet.
 */
export function emptyBorderFlows(j: number, hours: number, physical = 0): BorderFlows {
  return {
    border: j,
    physicalAb: new Float64Array(hours).fill(physical),
    physicalBa: new Float64Array(hours).fill(physical),
    physicalInterpolated: new Uint8Array(hours),
    scheduledAb: new Float64Array(hours),
    scheduledBa: new Float64Array(hours),
    ntcAb: new Float64Array(hours),
    ntcBa: new Float64Array(hours),
    classes: [],
  };
}

/**
 * Hourly facts and classification (with `thresholds`) of one border over `hours` hours; hours from
 * `pastHours` on have no physical flow (classification falls back to the schedules).
 */
export function borderFlows(
  j: number,
  b: BorderProfile,
  zones: readonly ZonePrices[],
  outage: Uint8Array,
  pastHours: number,
  seed: number,
  thresholds: ClassificationThresholds,
): BorderFlows {
  const hours = outage.length;
  const rng = new Rng(seed, `flows:${b.a}->${b.b}`);
  const ctx: HourContext = { b, pa: zones[b.ia] as ZonePrices, pb: zones[b.ib] as ZonePrices, rng };
  const f = emptyBorderFlows(j, hours, Number.NaN);
  for (let k = 0; k < hours; k++) {
    if (outage[k]) {
      if (k < pastHours) f.physicalAb[k] = f.physicalBa[k] = 0;
      continue;
    }
    const ntcAb = (f.ntcAb[k] = Math.round(b.ntcAb * rng.range(0.85, 1)));
    const ntcBa = (f.ntcBa[k] = Math.round(b.ntcBa * rng.range(0.85, 1)));
    const { scheduled, physical } = netFlows(ctx, k, ntcAb, ntcBa);
    f.scheduledAb[k] = tenth(Math.max(scheduled, 0));
    f.scheduledBa[k] = tenth(Math.max(-scheduled, 0));
    if (k >= pastHours) continue;
    f.physicalAb[k] = tenth(Math.max(physical, 0));
    f.physicalBa[k] = tenth(Math.max(-physical, 0));
  }
  fillFlowGaps(f, pastHours, Math.max(1, Math.round(pastHours / (24 * 30))), new Rng(seed, `flow-gaps:${b.a}->${b.b}`));
  for (let k = 0; k < hours; k++) f.classes.push(classifyFlowHour(f, k, ctx.pa, ctx.pb, outage[k] === 1, thresholds));
  return f;
}
