/**
 * Calendar rules of the service, on epoch milliseconds UTC: the length constants, the ISO week and
 * the EU summer-time rule. Pure.
 */
import { boundedMemo } from '../bounded-memo.js';

/** Milliseconds in a minute. */
export const MINUTE_MS = 60_000;
/** Milliseconds in an hour. */
export const HOUR_MS = 60 * MINUTE_MS;
/** Milliseconds in a 24-hour day (a UTC day; a market day across a DST switch lasts 23 or 25 hours). */
export const DAY_MS = 24 * HOUR_MS;
/** Milliseconds in a 7-day week. */
export const WEEK_MS = 7 * DAY_MS;

/** Floors an instant to a multiple of `step` ms (UTC: hours and days are multiples of the epoch). */
export function floorTo(ms: number, step: number): number {
  return Math.floor(ms / step) * step;
}

/** Start (Monday 00:00 UTC) of the ISO week holding an instant, epoch ms. */
export function isoWeekStart(ms: number): number {
  const day = floorTo(ms, DAY_MS);
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
}

/** 01:00 UTC of the last Sunday of a month (0-based): the instant EU summer time starts (March) or ends (October). */
export function euSwitchInstant(year: number, month0: number): number {
  const lastDay = new Date(Date.UTC(year, month0 + 1, 0));
  return Date.UTC(year, month0, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/**
 * Whether EU summer time (CEST, WEST, EEST, and BST/IST of GB and Ireland) is in force at an
 * instant: from the last Sunday of March to the last Sunday of October, 01:00 UTC, as EU directive
 * 2000/84/EC sets it. Every zone of the catalogue follows it (tested against the IANA database).
 */
export function isEuSummerTime(ms: number): boolean {
  const [start, end] = summerTimeOf(new Date(ms).getUTCFullYear());
  return ms >= start && ms < end;
}

/** Years whose summer-time bounds {@link summerTimeOf} keeps (the demo and ingestion span a few). */
const KEPT_YEARS = 64;

/** Start and end instants (epoch ms) of a year's EU summer time, computed once per year. */
const summerTimeOf = boundedMemo(KEPT_YEARS, (year: number): readonly [number, number] => [
  euSwitchInstant(year, 2),
  euSwitchInstant(year, 9),
]);
