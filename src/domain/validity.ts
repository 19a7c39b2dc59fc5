/**
 * Validity periods of zones and borders as UTC milliseconds, and the interval arithmetic on them.
 * Periods are half-open [from, to); the data come from {@link ZONE_HISTORY}.
 */
import { ZONE_HISTORY } from './catalogue-history.js';

/** A half-open period [from, to) in UTC ms; open bounds are ±Infinity. */
export interface Period {
  readonly from: number;
  readonly to: number;
}

/** The whole record: a zone or border without a known start or end. */
export const ALWAYS: Period = Object.freeze({ from: -Infinity, to: Infinity });

/** The period in which a zone (by code) exists; {@link ALWAYS} for a zone without history. */
export function zonePeriod(code: string): Period {
  const h = ZONE_HISTORY[code];
  if (!h) return ALWAYS;
  return {
    from: h.validFrom ? Date.parse(h.validFrom) : -Infinity,
    to: h.validTo ? Date.parse(h.validTo) : Infinity,
  };
}

/** The intersection of two periods, or null when they do not overlap. */
export function intersect(a: Period, b: Period): Period | null {
  const from = Math.max(a.from, b.from);
  const to = Math.min(a.to, b.to);
  return from < to ? { from, to } : null;
}

/** The period of a border: where both of its zones exist (null when never). */
export function borderPeriod(a: string, b: string): Period | null {
  return intersect(zonePeriod(a), zonePeriod(b));
}

/** true when `range` lies wholly inside `period`. */
export function covers(period: Period, range: Period): boolean {
  return period.from <= range.from && range.to <= period.to;
}

/** An open bound as null, a closed one as an ISO 8601 UTC instant without milliseconds. */
export function boundIso(ms: number): string | null {
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace('.000Z', 'Z') : null;
}
