/**
 * The market's history in the demo (src/domain/catalogue-history.ts): a demo zone or border exists
 * only for its validity period, and a zone that ended while its successors are demo zones (DE_AT_LU
 * up to 2018-09-30T22:00Z, in place of DE_LU and AT) is shown for its period. Such a zone is one
 * bidding zone: the borders between its successors never congest before its end, so the successors
 * share one coupled price then, which the zone takes (from its largest successor, DE_LU: gaps and
 * all); its borders carry the sums of its successors' borders with the same neighbour (MW), with
 * the hourly classification recomputed on its price. Pure; hours are indices from the data set's
 * first hour (UTC).
 */
import { HISTORICAL_BORDERS, ZONE_HISTORY } from '../domain/catalogue-history.js';
import type { ClassificationThresholds } from '../domain/classification.js';
import { type Period, borderPeriod, zonePeriod } from '../domain/validity.js';
import { HOUR_MS } from './calendar.js';
import { type BorderFlows, classifyFlowHour, emptyBorderFlows, tenth } from './flows.js';
import type { ZonePrices } from './prices.js';
import type { BorderProfile, ZoneProfile } from './profiles.js';

/** Hours [from, to) as indices from the data set's first hour. */
export interface HourSpan {
  readonly from: number;
  readonly to: number;
}

/** A zone that ended within the data set's range, shown in place of its successors before its end. */
export interface MergedZone {
  readonly code: string;
  /** Indices of its successors among the demo profiles. */
  readonly members: readonly number[];
  /** The member whose prices it takes (the largest by weight). */
  readonly priceOf: number;
  /** Its first hour after its end (exclusive end, > 0). */
  readonly until: number;
}

/** The hours of `period` within a data set of `hours` hours from `start` (epoch ms UTC); empty when none. */
export function hoursOf(period: Period | null, start: number, hours: number): HourSpan {
  if (!period) return { from: 0, to: 0 };
  const clamp = (ms: number) => Math.min(hours, Math.max(0, Math.ceil((ms - start) / HOUR_MS)));
  const from = clamp(period.from);
  const to = clamp(period.to);
  return from < to ? { from, to } : { from: 0, to: 0 };
}

/** Historical zones whose successors are all demo zones and that end after `start`: shown before their end. */
export function mergedZones(profiles: readonly ZoneProfile[], start: number, hours: number): MergedZone[] {
  const index = new Map(profiles.map((p, i) => [p.code, i]));
  const out: MergedZone[] = [];
  for (const [code, h] of Object.entries(ZONE_HISTORY)) {
    const members = (h.successors ?? []).map((s) => index.get(s));
    if (!h.validTo || members.length === 0 || members.some((m) => m === undefined)) continue;
    const span = hoursOf(zonePeriod(code), start, hours);
    if (span.to === 0) continue;
    const ids = members as number[];
    const priceOf = ids.reduce((best, m) => ((profiles[m]?.weight ?? 0) > (profiles[best]?.weight ?? 0) ? m : best));
    out.push({ code, members: ids, priceOf, until: span.to });
  }
  return out;
}

/** Borders between two members of one merged zone, with the hour until which they never congest. */
export function joinedBorders(
  merged: readonly MergedZone[],
  borders: readonly BorderProfile[],
): { border: number; until: number }[] {
  return merged.flatMap((m) =>
    borders.flatMap((b, j) =>
      m.members.includes(b.ia) && m.members.includes(b.ib) ? [{ border: j, until: m.until }] : [],
    ),
  );
}

/** The prices of a merged zone: its largest member's series (shared arrays, no copy). */
export function mergedPrices(m: MergedZone, prices: readonly ZonePrices[]): ZonePrices {
  const p = prices[m.priceOf] as ZonePrices;
  return { ...p, code: m.code };
}

/** A border of a merged zone: its profile (zone indices into the extended price list) and its members' borders. */
export interface MergedBorder {
  readonly profile: BorderProfile;
  readonly until: number;
  /** Member borders (indices into the demo borders) and whether their A->B runs against this border's. */
  readonly parts: readonly { readonly border: number; readonly flip: boolean }[];
}

/**
 * The historical borders of the merged zones (HISTORICAL_BORDERS) whose neighbour is a demo zone
 * and that have at least one member border; `zoneIndex` of a merged zone is its index in the
 * extended price list.
 */
export function mergedBorders(
  merged: readonly MergedZone[],
  zoneIndex: ReadonlyMap<string, number>,
  profiles: readonly ZoneProfile[],
  borders: readonly BorderProfile[],
): MergedBorder[] {
  const out: MergedBorder[] = [];
  for (const [a, b] of HISTORICAL_BORDERS) {
    const m = merged.find((z) => z.code === a || z.code === b);
    const other = m?.code === a ? b : a;
    const io = profiles.findIndex((p) => p.code === other);
    if (!m || io < 0) continue;
    const mergedIsA = m.code === a;
    const parts = borders.flatMap((bp, j) => {
      if (bp.ia === io && m.members.includes(bp.ib)) return [{ border: j, flip: mergedIsA }];
      if (bp.ib === io && m.members.includes(bp.ia)) return [{ border: j, flip: !mergedIsA }];
      return [];
    });
    if (parts.length === 0) continue;
    const first = borders[(parts[0] as { border: number }).border] as BorderProfile;
    const ia = (mergedIsA ? zoneIndex.get(m.code) : io) as number;
    const ib = (mergedIsA ? io : zoneIndex.get(m.code)) as number;
    out.push({ profile: { ...first, a, b, ia, ib }, until: m.until, parts });
  }
  return out;
}

/**
 * Hourly facts of a merged zone's border over its hours [0, until): per direction the sum of its
 * member borders (MW), interpolated where one was, in outage where all were; classified with the
 * prices of its two zones.
 */
export function mergedBorderFlows(
  j: number,
  mb: MergedBorder,
  flows: readonly BorderFlows[],
  outages: readonly Uint8Array[],
  prices: readonly ZonePrices[],
  thresholds: ClassificationThresholds,
): BorderFlows {
  const hours = mb.until;
  const f = emptyBorderFlows(j, hours);
  const pa = prices[mb.profile.ia] as ZonePrices;
  const pb = prices[mb.profile.ib] as ZonePrices;
  for (let k = 0; k < hours; k++) {
    let out = 1;
    for (const { border, flip } of mb.parts) {
      const p = flows[border] as BorderFlows;
      const [pab, pba, sab, sba, nab, nba] = flip
        ? [p.physicalBa, p.physicalAb, p.scheduledBa, p.scheduledAb, p.ntcBa, p.ntcAb]
        : [p.physicalAb, p.physicalBa, p.scheduledAb, p.scheduledBa, p.ntcAb, p.ntcBa];
      f.physicalAb[k] = (f.physicalAb[k] as number) + (pab[k] as number);
      f.physicalBa[k] = (f.physicalBa[k] as number) + (pba[k] as number);
      f.scheduledAb[k] = (f.scheduledAb[k] as number) + (sab[k] as number);
      f.scheduledBa[k] = (f.scheduledBa[k] as number) + (sba[k] as number);
      f.ntcAb[k] = (f.ntcAb[k] as number) + (nab[k] as number);
      f.ntcBa[k] = (f.ntcBa[k] as number) + (nba[k] as number);
      f.physicalInterpolated[k] = (f.physicalInterpolated[k] as number) | (p.physicalInterpolated[k] as number);
      out &= (outages[border] as Uint8Array)[k] as number;
    }
    for (const series of [f.physicalAb, f.physicalBa, f.scheduledAb, f.scheduledBa])
      series[k] = tenth(series[k] as number);
    f.classes.push(classifyFlowHour(f, k, pa, pb, out === 1, thresholds));
  }
  return f;
}

/** The hours in which each zone (by code) and each border (stored orientation) of the data set exists. */
export function zoneHours(code: string, start: number, hours: number): HourSpan {
  return hoursOf(zonePeriod(code), start, hours);
}

/** See {@link zoneHours}. */
export function borderHours(a: string, b: string, start: number, hours: number): HourSpan {
  return hoursOf(borderPeriod(a, b), start, hours);
}
