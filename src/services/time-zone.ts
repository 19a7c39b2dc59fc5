import { NAIVE_REFUSED, type NaiveZone } from '../domain/time.js';
import { parseTimeZone, timeZoneLabel, type TimeZoneChoice } from '../domain/time-zone.js';
import type { ZoneTimeZones } from '../repositories/sql/time.js';
import type { ServiceDeps } from './context.js';
import type { Meta } from './meta.js';

/** Rows of a response with, under `tz`, the IANA zone each row's instants are written in. */
export interface RowsWithZone<R> {
  readonly meta: Meta;
  readonly rows: R[];
  readonly rowTimeZone?: ((row: R) => string) | undefined;
}

/**
 * The time zones a request applies, resolved against its selection: the IANA zone of each
 * selected zone (bidding zone code → IANA name), how naive datetimes are read, and meta's label.
 * `perZone` is null without a time zone (UTC: the no-`tz` path, unchanged).
 */
export interface AppliedTimeZone {
  readonly choice: TimeZoneChoice;
  /** meta.time_zone: only when `tz` was given. */
  readonly label: string | undefined;
  /** IANA zone per bidding zone code of the selection; null for UTC. */
  readonly perZone: ReadonlyMap<string, string> | null;
  /** The same by zone id, for SQL; null for UTC. */
  readonly byZoneId: ZoneTimeZones | null;
  /** How `datetime_from`/`datetime_to` without offset are read. */
  readonly naive: NaiveZone;
}

/**
 * Resolves `tz` for a selection of bidding zones (codes; for borders, the zone A of each border in
 * stored orientation). `local` reads naive bounds in the selection's zone when all share one, and
 * refuses them when they span several.
 * @throws InputError on `tz` for an unknown time zone.
 */
export function applyTimeZone(
  deps: ServiceDeps,
  tz: string | undefined,
  zoneCodes: readonly string[],
): AppliedTimeZone {
  const choice = parseTimeZone(tz);
  const label = timeZoneLabel(choice, tz !== undefined);
  if (choice.kind === 'utc') return { choice, label, perZone: null, byZoneId: null, naive: undefined };
  const zones = zoneCodes.flatMap((c) => deps.catalogue.zone(c) ?? []);
  const nameOf = (zoneTimeZone: string) => (choice.kind === 'zone' ? choice.name : zoneTimeZone);
  const perZone = new Map(zones.map((z) => [z.code, nameOf(z.timeZone)]));
  const byZoneId = { zoneIds: zones.map((z) => z.id), names: zones.map((z) => nameOf(z.timeZone)) };
  if (choice.kind === 'zone') return { choice, label, perZone, byZoneId, naive: choice.name };
  const distinct = new Set(perZone.values());
  const naive = distinct.size === 1 ? [...distinct][0] : distinct.size === 0 ? undefined : NAIVE_REFUSED;
  return { choice, label, perZone, byZoneId, naive };
}

/** The IANA zone rows of a bidding zone are written in; undefined for UTC. */
export function rowZoneOf(applied: AppliedTimeZone): ((zoneCode: string) => string) | undefined {
  const perZone = applied.perZone;
  if (!perZone) return undefined;
  return (code) => perZone.get(code) ?? 'UTC';
}
