/**
 * Time zones of the view. A range of whole days in a zone is held as "wall-clock" epoch ms (the zone's
 * local date and time read as if UTC); instants are converted to wall-clock ms for the axes, so every
 * chart reads in the chosen zone whatever the browser's own zone is.
 */

import { offsetMinutesAt } from '../domain/zone-offset.js';

/** Time zone of the view: UTC, the day-ahead market's (CET/CEST) or the browser's own. */
export type ViewTz = 'UTC' | 'market' | 'local';

/**
 * The IANA zone of market time: the day-ahead auction (SDAC) delivers in CET/CEST days, whose rules
 * Europe/Berlin follows (as do Europe/Brussels, Paris, Amsterdam).
 */
export const MARKET_ZONE = 'Europe/Berlin';

/** The IANA name of the browser's time zone. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The IANA name of a view's zone (`UTC`, {@link MARKET_ZONE} or the browser's zone). */
export const zoneName = (tz: ViewTz): string => (tz === 'UTC' ? 'UTC' : tz === 'market' ? MARKET_ZONE : browserZone());

/** The offset of `timeZone` from UTC at instant `ms`, ms (CET +3,600,000, CEST +7,200,000). */
export const offsetMs = (ms: number, timeZone: string): number =>
  timeZone === 'UTC' ? 0 : offsetMinutesAt(timeZone, ms) * 60_000;

/** Wall-clock ms in `timeZone` of the instant `ms`. */
export const toWall = (ms: number, timeZone: string): number => ms + offsetMs(ms, timeZone);

/**
 * The instant of wall-clock ms `wall` in `timeZone`; a wall time skipped by a spring-forward change
 * maps to the instant after the gap, one repeated in autumn to its first occurrence.
 */
export function fromWall(wall: number, timeZone: string): number {
  const day = 86_400_000;
  const candidates = [wall - offsetMs(wall - day, timeZone), wall - offsetMs(wall + day, timeZone)];
  const exact = candidates.filter((ms) => toWall(ms, timeZone) === wall);
  return exact.length ? Math.min(...exact) : Math.max(...candidates);
}
