/**
 * Time zones of the view. A range of whole days in a zone is held as "wall-clock" epoch ms (the zone's
 * local date and time read as if UTC); instants are converted to wall-clock ms for the axes, so every
 * chart reads in the chosen zone whatever the browser's own zone is.
 */

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

const formats = new Map<string, Intl.DateTimeFormat>();
const formatOf = (timeZone: string): Intl.DateTimeFormat => {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format;
};

/** The offset of `timeZone` from UTC at instant `ms`, ms (CET +3,600,000, CEST +7,200,000). */
export function offsetMs(ms: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const part: Record<string, number> = {};
  for (const p of formatOf(timeZone).formatToParts(ms)) part[p.type] = Number(p.value);
  const wall = Date.UTC(
    part.year ?? 1970,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    part.hour ?? 0,
    part.minute ?? 0,
    part.second ?? 0,
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

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
