import { InputError } from '../errors.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS } from './calendar.js';
import { wallTimeToInstant } from './time-zone.js';

/** A half-open UTC range [from, to). */
export interface TimeRange {
  readonly from: Date;
  readonly to: Date;
}

const RELATIVE = /^now(?:-(\d{1,6})([mHhdwMy]))?$/;
const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const MS = { m: MINUTE_MS, H: HOUR_MS, h: HOUR_MS, d: DAY_MS, w: WEEK_MS } as const;

/**
 * Earliest instant a datetime parameter may resolve to: 1900-01-01T00:00:00Z (epoch ms). The
 * supported range lies well inside what JS `Date`, PostgreSQL `timestamptz`, the bucket arithmetic
 * (ISO weeks, UTC days) and the four-digit years of the formatted meta can represent.
 */
export const MIN_INSTANT_MS = Date.UTC(1900, 0, 1);
/** Latest instant a datetime parameter may resolve to: 2200-01-01T00:00:00Z (epoch ms), inclusive. */
export const MAX_INSTANT_MS = Date.UTC(2200, 0, 1);
/** Largest UTC offset magnitude accepted in an ISO datetime, minutes (±14:00). */
export const MAX_OFFSET_MINUTES = 14 * 60;

/** true for a valid instant within [{@link MIN_INSTANT_MS}, {@link MAX_INSTANT_MS}]. */
export const isSupportedInstant = (d: Date): boolean => {
  const t = d.getTime();
  return t >= MIN_INSTANT_MS && t <= MAX_INSTANT_MS;
};

/** Why a datetime parameter was refused, in FastAPI's `type` vocabulary. */
export type DateTimeErrorType = 'datetime_parsing' | 'greater_than_equal' | 'less_than_equal' | 'value_error';

const NAIVE_REFUSED_MSG =
  'tz=local: the selected zones lie in several time zones, so a datetime without offset is ambiguous; give an offset (or Z) or an IANA time zone in tz';

/** Outcome of {@link parseDateTime}: a valid, supported instant, or why there is none. */
export type DateTimeParse =
  | { readonly ok: true; readonly instant: Date }
  | { readonly ok: false; readonly type: DateTimeErrorType; readonly msg: string };

const FORMAT_HINT =
  "Invalid datetime: expected an ISO 8601 datetime (UTC when no offset) or 'now' optionally followed by -<n><unit>, unit one of m, H, h, d, w, M, y";

function subtractRelative(now: Date, amount: number, unit: string): Date {
  if (unit === 'M' || unit === 'y') {
    const d = new Date(now);
    const months = unit === 'M' ? amount : amount * 12;
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - months);
    const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, lastDay));
    return d;
  }
  return new Date(now.getTime() - amount * MS[unit as keyof typeof MS]);
}

/** Offset east of UTC in minutes, or null when it is not of the form ±hh[:]mm within ±14:00. */
function offsetMinutes(offset: string | undefined): number | null {
  if (!offset || offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  const total = hours * 60 + minutes;
  return minutes < 60 && total <= MAX_OFFSET_MINUTES ? sign * total : null;
}

/**
 * How datetimes without offset are read: UTC (undefined), as wall times of an IANA zone, or refused
 * ({@link NAIVE_REFUSED}: the selection spans several local time zones).
 */
export type NaiveZone = string | undefined;

/** {@link NaiveZone} of a `tz=local` selection spanning several time zones. */
export const NAIVE_REFUSED = '\u0000refused';

function parseAbsolute(m: RegExpMatchArray, naive: NaiveZone): Date | 'offset' | 'naive' | null {
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', offset] = m;
  const ms = frac ? Math.round(Number(frac) * 1000) : 0;
  const check = new Date(Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms));
  check.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  const utc = check.getTime();
  const valid =
    check.getUTCFullYear() === Number(y) &&
    check.getUTCMonth() === Number(mo) - 1 &&
    check.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60;
  if (!valid) return null;
  if (offset === undefined && naive !== undefined) {
    return naive === NAIVE_REFUSED ? 'naive' : new Date(wallTimeToInstant(utc, naive));
  }
  const east = offsetMinutes(offset);
  if (east === null) return 'offset';
  return new Date(utc - east * 60_000);
}

function readInstant(value: string, now: Date, naive: NaiveZone): Date | 'offset' | 'naive' | null {
  const rel = RELATIVE.exec(value);
  if (rel) return rel[1] ? subtractRelative(now, Number(rel[1]), rel[2] ?? 'd') : new Date(now);
  const abs = ABSOLUTE.exec(value);
  return abs ? parseAbsolute(abs, naive) : null;
}

/**
 * Parses a datetime parameter, the single reader of both API surfaces: ISO 8601 (no offset means
 * UTC; a bare date is 00:00 UTC; `Z` or an offset within ±14:00, minutes below 60, is converted) or
 * relative `now[-<n><unit>]` with units m, H/h, d, w, M (months), y, resolved against `now`.
 * Succeeds only with a valid instant from 1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z inclusive
 * ({@link MIN_INSTANT_MS}, {@link MAX_INSTANT_MS}); anything else is a typed failure. With
 * `naive` set, a datetime without offset is a wall time of that IANA zone (see `wallTimeToInstant`).
 */
export function parseDateTime(text: string, now: Date, naive?: NaiveZone): DateTimeParse {
  const read = readInstant(text.trim(), now, naive);
  if (read === null) return { ok: false, type: 'datetime_parsing', msg: FORMAT_HINT };
  if (read === 'naive') {
    return { ok: false, type: 'value_error', msg: NAIVE_REFUSED_MSG };
  }
  if (read === 'offset') {
    return {
      ok: false,
      type: 'datetime_parsing',
      msg: 'Invalid datetime: the UTC offset must lie within -14:00..+14:00 with minutes below 60',
    };
  }
  const t = read.getTime();
  if (!(t >= MIN_INSTANT_MS))
    return {
      ok: false,
      type: 'greater_than_equal',
      msg: 'Input should be greater than or equal to 1900-01-01T00:00:00Z',
    };
  if (t > MAX_INSTANT_MS)
    return { ok: false, type: 'less_than_equal', msg: 'Input should be less than or equal to 2200-01-01T00:00:00Z' };
  return { ok: true, instant: read };
}

/** Defaults of the contract (docs/contract.md#time-ranges): `now-30d` to `now`. */
export const DEFAULT_FROM = 'now-30d';
export const DEFAULT_TO = 'now';

/**
 * Resolves `datetime_from`/`datetime_to` into a UTC range, `now` truncated to the second.
 * @throws InputError naming the parameter by its declared id (`datetimeFrom`, `datetimeTo`) when a value is
 * unreadable, outside the supported range (see {@link parseDateTime}) or from >= to; on `tz` for a naive bound {@link NAIVE_REFUSED} refuses.
 */
export function resolveRange(
  fromText: string | undefined,
  toText: string | undefined,
  nowMs: number,
  naive?: NaiveZone,
): TimeRange {
  const now = new Date(Math.floor(nowMs / 1000) * 1000);
  const from = parseDateTime(fromText ?? DEFAULT_FROM, now, naive);
  const to = parseDateTime(toText ?? DEFAULT_TO, now, naive);
  const issues = [];
  const param = (r: DateTimeParse, name: string) => (!r.ok && r.msg === NAIVE_REFUSED_MSG ? 'tz' : name);
  if (!from.ok) issues.push({ param: param(from, 'datetimeFrom'), msg: from.msg, type: from.type, input: fromText });
  if (!to.ok) issues.push({ param: param(to, 'datetimeTo'), msg: to.msg, type: to.type, input: toText });
  if (!from.ok || !to.ok) throw new InputError(issues);
  if (from.instant.getTime() >= to.instant.getTime()) {
    throw InputError.of('datetimeTo', 'datetime_to must be later than datetime_from', 'value_error', toText);
  }
  return { from: from.instant, to: to.instant };
}

/** Formats an instant as the contract's meta does (docs/contract.md#envelope-and-meta): UTC without offset, milliseconds only when set. */
export function formatUtcNaive(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
}

/** `00` to `59`: hours, minutes and seconds as two digits. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** `HH:MM:00Z` for every minute of a day: instants on whole minutes are written with one concatenation. */
const MINUTE_OF_DAY = Array.from(
  { length: 1_440 },
  (_, m) => `${TWO_DIGITS[Math.floor(m / 60)]}:${TWO_DIGITS[m % 60]}:00Z`,
);

/** First instant past year 9999 (ms): from there on `toISOString` writes six-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;

/** The last UTC day formatted and its `YYYY-MM-DDT` text: rows run day by day. */
let lastDay = Number.NaN;
let lastDayPrefix = '';

/**
 * Formats an instant as RFC 3339 UTC with `Z`, seconds precision unless milliseconds are set.
 * Whole seconds of years 1970–9999 are written from the remembered day text and the time of day,
 * without `toISOString` (the same text).
 */
export function formatUtc(d: Date): string {
  const ms = d.getTime();
  if (!(ms >= 0 && ms < YEAR_10000_MS) || ms % 1_000 !== 0) {
    const iso = d.toISOString();
    return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
  }
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    lastDayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  const seconds = (ms - day * DAY_MS) / 1_000;
  if (seconds % 60 === 0) return lastDayPrefix + (MINUTE_OF_DAY[seconds / 60] as string);
  return `${lastDayPrefix}${TWO_DIGITS[Math.floor(seconds / 3_600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}Z`;
}

/** A range split into whole UTC days (served from daily rollups) and partial-day edges. */
export interface DaySplit {
  /** Whole UTC days [from, to), or null when the range holds none. */
  readonly days: TimeRange | null;
  /** At most two partial-day ranges before and after the whole days (or the whole range). */
  readonly edges: readonly TimeRange[];
}

/** Splits [from, to) into whole UTC days and the partial days at its ends. */
export function splitDays(range: TimeRange): DaySplit {
  const from = range.from.getTime();
  const to = range.to.getTime();
  const lo = Math.ceil(from / DAY_MS) * DAY_MS;
  const hi = Math.floor(to / DAY_MS) * DAY_MS;
  if (lo >= hi) return { days: null, edges: [range] };
  const edges: TimeRange[] = [];
  if (from < lo) edges.push({ from: range.from, to: new Date(lo) });
  if (hi < to) edges.push({ from: new Date(hi), to: range.to });
  return { days: { from: new Date(lo), to: new Date(hi) }, edges };
}

/** `YYYY-MM-DD` of a UTC instant. */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/** Widens [from, to) outward to whole UTC days (at least one day). */
export function widenToDays(range: TimeRange): TimeRange {
  const start = Math.floor(range.from.getTime() / DAY_MS) * DAY_MS;
  const end = Math.ceil(range.to.getTime() / DAY_MS) * DAY_MS;
  return { from: new Date(start), to: new Date(Math.max(end, start + DAY_MS)) };
}
