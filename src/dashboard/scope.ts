/**
 * From the selection to the range the panels show: the range choice resolved against the server's
 * clock in the view's time zone, the custom date inputs kept in step, and tomorrow's delivery day.
 */
import { readSelection, syncDateInputs } from './controls.js';
import { DAY_MS, floorDay, isoDay, type Range, resolveChoice, tomorrowOf } from './data.js';
import type { Scope } from './fetch.js';
import { toWall, zoneName } from './time.js';

/** Reads the range of the selection. */
export interface ScopeReader {
  /** The selection's range and zone, or null when the range choice is invalid (`#range-error` says why). */
  current(): Scope | null;
  /** The delivery day after the market's today, in market time (CET/CEST). */
  tomorrow(): Scope;
}

/**
 * What empty custom date inputs start from (YYYY-MM-DD): the range on screen (`shown`, wall-clock ms),
 * else the 7 days through `now`'s day (wall-clock ms); `max` is tomorrow, the last day with prices.
 */
export function dateInputFallback(shown: Range | null, now: number): { from: string; to: string; max: string } {
  const range = shown ?? { from: floorDay(now) - 6 * DAY_MS, to: floorDay(now) + DAY_MS };
  return { from: isoDay(range.from), to: isoDay(range.to - DAY_MS), max: isoDay(tomorrowOf(now).from) };
}

/** The delivery day after the market's day of `nowMs` (UTC ms), in market time. */
export const tomorrowScope = (nowMs: number): Scope => ({
  range: tomorrowOf(toWall(nowMs, zoneName('market'))),
  tz: 'market',
});

/** Reads `form`'s range at the server clock `now` (UTC ms), saying a wrong choice in `error`. */
export function createScopeReader(form: HTMLFormElement, error: HTMLElement, now: () => number): ScopeReader {
  /** The range the panels show, so a switch to "Custom" starts from it. */
  let shown: Range | null = null;
  const current = (): Scope | null => {
    const sel = readSelection(form);
    const wall = toWall(now(), zoneName(sel.tz));
    syncDateInputs(form, dateInputFallback(shown, wall));
    const range = resolveChoice(sel.range, wall);
    error.textContent = typeof range === 'string' ? range : '';
    if (typeof range === 'string') return null;
    shown = range;
    return { range, tz: sel.tz };
  };
  return { current, tomorrow: () => tomorrowScope(now()) };
}
