/**
 * UTC offsets of IANA zones from the runtime's time-zone data (Intl), with no other import: the server's
 * time-zone rules (time-zone.ts) and the dashboard's view zones (dashboard/time.ts) share it.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter of `tz`'s wall-clock date and time, parts numeric, 24-hour (made once per zone). */
function formatterOf(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Offset of an IANA zone east of UTC at an instant (epoch ms), in minutes (CET 60, CEST 120). */
export function offsetMinutesAt(tz: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(tz).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}
