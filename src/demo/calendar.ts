/** Time helpers of the demo generator. All instants are epoch milliseconds UTC. Pure. */
import { DAY_MS, HOUR_MS, MINUTE_MS, floorTo, isEuSummerTime, isoWeekStart } from '../domain/calendar.js';

export { DAY_MS, HOUR_MS, MINUTE_MS, floorTo, isEuSummerTime, isoWeekStart };

/** Start of 15-minute day-ahead periods (SDAC go-live), 2025-10-01T00:00Z; hourly before. */
export const QUARTER_HOUR_SWITCH_MS = Date.UTC(2025, 9, 1);

/** How far back the demo data set reaches from `now` before snapping to the 1st of the month. */
export const DEMO_HISTORY_DAYS = 430;

/** The instants the demo data set covers. */
export interface DemoRange {
  /** First price period / border-hour, inclusive (UTC midnight). */
  readonly start: number;
  /** End of tomorrow UTC, exclusive: prices, schedules and NTC stop here. */
  readonly end: number;
  /** Physical flows exist for hours starting before this instant (completed hours up to now). */
  readonly physicalEnd: number;
}

/**
 * The demo range for a clock: from the 1st day of the month of (now − 430 days), or `from` (floored
 * to UTC midnight), to the end of tomorrow UTC.
 */
export function demoRange(now: Date, from?: Date): DemoRange {
  const nowMs = now.getTime();
  let start: number;
  if (from) start = floorTo(from.getTime(), DAY_MS);
  else {
    const back = new Date(nowMs - DEMO_HISTORY_DAYS * DAY_MS);
    start = Date.UTC(back.getUTCFullYear(), back.getUTCMonth(), 1);
  }
  const end = floorTo(nowMs, DAY_MS) + 2 * DAY_MS;
  if (start >= end) throw new RangeError('demo range: from must be before the end of tomorrow');
  return { start, end, physicalEnd: Math.min(end, Math.max(start, floorTo(nowMs, HOUR_MS))) };
}

/** Native day-ahead period length at an instant: 15 min from 2025-10-01, 60 min before. */
export function periodMinutesAt(ms: number): number {
  return ms >= QUARTER_HOUR_SWITCH_MS ? 15 : 60;
}

/** Local clock hour (fractional) of a zone with standard offset `stdOffsetH` (hours) at an instant. */
export function localHour(ms: number, stdOffsetH: number): number {
  const offset = stdOffsetH + (isEuSummerTime(ms) ? 1 : 0);
  const h = (ms / HOUR_MS + offset) % 24;
  return h < 0 ? h + 24 : h;
}

/** Local day of week (0 = Sunday) of a zone with standard offset `stdOffsetH` at an instant. */
export function localWeekday(ms: number, stdOffsetH: number): number {
  const offset = stdOffsetH + (isEuSummerTime(ms) ? 1 : 0);
  return new Date(ms + offset * HOUR_MS).getUTCDay();
}

/** Day of year (0-based, fractional) of an instant, for seasonal shapes. */
export function dayOfYear(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  return (ms - Date.UTC(year, 0, 1)) / DAY_MS;
}
