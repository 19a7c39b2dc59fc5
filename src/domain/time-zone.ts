import { InputError } from '../errors.js';
import { closestCodes, didYouMean } from './suggest.js';
import { offsetMinutesAt } from './zone-offset.js';

/**
 * The time zone a request asked for with `tz` / `timeZone`: none (UTC, the contract's output), one
 * IANA zone for every row, or `local`: each bidding zone's own IANA zone.
 */
export type TimeZoneChoice =
  | { readonly kind: 'utc' }
  | { readonly kind: 'zone'; readonly name: string }
  | { readonly kind: 'local' };

/** The value meta.time_zone reports: the canonical IANA name or `local`; undefined without `tz`. */
export function timeZoneLabel(tz: TimeZoneChoice, given: boolean): string | undefined {
  if (!given) return undefined;
  return tz.kind === 'zone' ? tz.name : tz.kind === 'local' ? 'local' : 'UTC';
}

let canonical: Map<string, string> | undefined;

/** IANA names Intl lists, by upper-case spelling. */
function knownZones(): Map<string, string> {
  canonical ??= new Map([...Intl.supportedValuesOf('timeZone'), 'UTC'].map((n) => [n.toUpperCase(), n]));
  return canonical;
}

/** Names every database the process serves knows, by upper-case spelling; undefined before any was read. */
let databaseZones: Map<string, string> | undefined;
let suggestable: string[] | undefined;

/**
 * Narrows the accepted time zones to the names `names` holds too: a database's `pg_timezone_names`,
 * read at start, so that no name Intl knows and the database does not (`US/Pacific-New`) reaches SQL.
 * Each call narrows further: a process serving several databases accepts the names all of them know.
 */
export function restrictTimeZones(names: Iterable<string>): void {
  const given = new Map([...names].map((n) => [n.toUpperCase(), n]));
  databaseZones = databaseZones ? new Map([...databaseZones].filter(([key]) => given.has(key))) : given;
  suggestable = undefined;
}

/** Longest name tried on Intl (IANA names are under 40 characters). */
const MAX_ZONE_NAME = 64;

/** The zone Intl reads a name as (its canonical name, a link resolved), or undefined when it rejects it. */
function intlReading(name: string): string | undefined {
  if (name.length > MAX_ZONE_NAME) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * The accepted spelling of a name both Intl and the database (once read) know: Intl's listed
 * spelling, else the database's, else as given; `UTC` for the names Intl reads as UTC. Undefined
 * for any other name.
 */
function zoneNamed(wanted: string): string | undefined {
  const key = wanted.toUpperCase();
  if (key === 'UTC') return 'UTC';
  if (databaseZones && !databaseZones.has(key)) return undefined;
  const listed = knownZones().get(key);
  if (listed !== undefined) return listed;
  const name = databaseZones?.get(key) ?? wanted;
  const reading = intlReading(name);
  if (reading === undefined) return undefined;
  return reading === 'UTC' ? 'UTC' : name;
}

/** The names suggestions are drawn from: Intl's list, less the names the database lacks. */
function suggestableZones(): string[] {
  suggestable ??= [...knownZones().values()].filter((n) => !databaseZones || databaseZones.has(n.toUpperCase()));
  return suggestable;
}

/**
 * Accepted names close to an unknown one: the zone Intl reads it as when that one is accepted
 * (`US/Pacific-New`: America/Los_Angeles), else the {@link closestCodes} among the names, else,
 * for a name without `/`, those whose last part (the city) is close (`Berlin`: Europe/Berlin).
 * Spaces are read as `_` (`New York`).
 */
export function closestZones(text: string): string[] {
  const wanted = text.trim().replaceAll(' ', '_');
  const reading = intlReading(wanted);
  const readAs =
    reading !== undefined && reading.toUpperCase() !== wanted.toUpperCase() ? zoneNamed(reading) : undefined;
  if (readAs !== undefined) return [readAs];
  const names = suggestableZones();
  const byName = closestCodes(wanted, names);
  if (byName.length || wanted.includes('/')) return byName;
  const byCity = new Map<string, string[]>();
  for (const n of names) {
    const city = n.slice(n.lastIndexOf('/') + 1);
    byCity.set(city, [...(byCity.get(city) ?? []), n]);
  }
  return closestCodes(wanted, [...byCity.keys()])
    .flatMap((city) => byCity.get(city) ?? [])
    .slice(0, 3);
}

/**
 * Reads a `tz` parameter: `local`, `UTC` or an IANA name, case-insensitively (echoed in its
 * canonical spelling; a name Intl accepts beyond its list, e.g. `Europe/Kyiv`, as the database
 * spells it). Only names both Intl and the database know are accepted (see {@link restrictTimeZones}).
 * Absent or `UTC` (or an alias of it) is UTC.
 * @throws InputError on `param` naming the value, with the closest names, when it is no known zone.
 */
export function parseTimeZone(text: string | undefined, param = 'tz'): TimeZoneChoice {
  if (text === undefined) return { kind: 'utc' };
  const wanted = text.trim();
  if (wanted.toLowerCase() === 'local') return { kind: 'local' };
  const name = zoneNamed(wanted);
  if (name === undefined) {
    const hint = didYouMean([[wanted, closestZones(wanted)]]);
    throw InputError.of(
      param,
      `Unknown time zone '${text}': expected an IANA time zone name (e.g. Europe/Berlin), UTC or local${hint}`,
      'value_error',
      text,
    );
  }
  return name === 'UTC' ? { kind: 'utc' } : { kind: 'zone', name };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `+hh:mm` / `-hh:mm` of an offset in minutes. */
function offsetText(minutes: number): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/** The local wall time of an instant in `tz` as an ISO text without offset (milliseconds when set). */
function wallText(ms: number, offset: number): string {
  const iso = new Date(ms + offset * 60_000).toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
}

/** RFC 3339 of an instant with the zone's offset at that instant: `2026-03-29T00:00:00+01:00`. */
export function formatInZone(d: Date, tz: string): string {
  const ms = d.getTime();
  const offset = offsetMinutesAt(tz, ms);
  return wallText(ms, offset) + offsetText(offset);
}

/** The local date (`YYYY-MM-DD`) of an instant in `tz`. */
export function localDay(d: Date, tz: string): string {
  const ms = d.getTime();
  return wallText(ms, offsetMinutesAt(tz, ms)).slice(0, 10);
}

/**
 * Instant text (RFC 3339 with the offset, {@link formatInZone}) or local-day text ({@link localDay})
 * in a zone, remembering the last instant per zone: sorted rows repeat each instant many times.
 */
export function zonedFormatter(kind: 'datetime' | 'day'): (d: Date, tz: string) => string {
  const last = new Map<string, { ms: number; text: string }>();
  return (d, tz) => {
    const ms = d.getTime();
    const hit = last.get(tz);
    if (hit?.ms === ms) return hit.text;
    const text = kind === 'day' ? localDay(d, tz) : formatInZone(d, tz);
    last.set(tz, { ms, text });
    return text;
  };
}

/**
 * The instant whose wall time in `tz` is `wallMs` (a wall time read as if UTC, epoch ms). In the
 * spring gap the wall time does not exist and is read with the offset before the switch (02:30 in
 * Berlin on 2026-03-29 is 01:30Z); in the autumn overlap the earlier instant wins.
 */
export function wallTimeToInstant(wallMs: number, tz: string): number {
  const before = offsetMinutesAt(tz, wallMs - 86_400_000);
  const after = offsetMinutesAt(tz, wallMs + 86_400_000);
  for (const offset of [before, after]) {
    const t = wallMs - offset * 60_000;
    if (offsetMinutesAt(tz, t) === offset) return t;
  }
  return wallMs - before * 60_000;
}
