import { zonedFormatter } from '../../domain/time-zone.js';
import { isoDay } from '../../domain/time.js';
import type { RowTimeZone } from '../../contract/json.js';

const ROW_TIME_ZONE = Symbol('rowTimeZone');

/** A row carrying the IANA zone its instants and days are written in (a `timeZone` argument). */
type Zoned = { readonly [ROW_TIME_ZONE]?: string };

/**
 * The rows as GraphQL row parents: under a time zone (the service's `rowTimeZone`), shallow copies
 * tagged with each row's IANA zone; without one, the rows themselves (output unchanged).
 */
export function inTimeZone<R>(rows: R[], zoneOf: RowTimeZone<R>): R[] {
  if (!zoneOf) return rows;
  return rows.map((r) => ({ ...r, [ROW_TIME_ZONE]: zoneOf(r) }));
}

/** The IANA zone a row parent was tagged with; undefined for UTC. */
export function timeZoneOfRow(row: unknown): string | undefined {
  return typeof row === 'object' && row !== null ? (row as Zoned)[ROW_TIME_ZONE] : undefined;
}

/** A nested row object under its parent's time zone. */
export function withRowTimeZone<T>(value: T, tz: string | undefined): T {
  return tz === undefined || typeof value !== 'object' || value === null ? value : { ...value, [ROW_TIME_ZONE]: tz };
}

const instantText = zonedFormatter('datetime');
const dayText = zonedFormatter('day');

/** An instant of a row: with its zone's offset (RFC 3339 text) under a time zone, else the Date. */
export function zonedInstant(d: Date, row: unknown): Date | string {
  const tz = timeZoneOfRow(row);
  return tz === undefined ? d : instantText(d, tz);
}

/** The calendar year of a row's instant: local under a time zone, else UTC. */
export function zonedYear(d: Date, row: unknown): number {
  const tz = timeZoneOfRow(row);
  return tz === undefined ? d.getUTCFullYear() : Number(dayText(d, tz).slice(0, 4));
}

/** A day of a row (`YYYY-MM-DD`): the local date under a time zone, else the UTC date. */
export function zonedDay(d: Date, row: unknown): string {
  const tz = timeZoneOfRow(row);
  return tz === undefined ? isoDay(d) : dayText(d, tz);
}
