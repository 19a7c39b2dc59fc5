/**
 * The time arithmetic of the SQL the repositories build, in one place: UTC bucket starts (one
 * mechanism, `date_bin` from a Monday origin, for timestamptz instants and UTC `date`s alike),
 * UTC days of instants, instants as epoch ms, and the hourly zone price.
 */
import type { Resolution } from '../../domain/resolution.js';
import { Prisma } from '../../generated/prisma/client.js';
import { HOURLY_PRICE_DECIMALS } from '../../domain/border-class.js';

/** A UTC bucket length. */
export type BucketUnit = 'hour' | 'day' | 'week';

const STRIDE: Record<BucketUnit, string> = { hour: '1 hour', day: '1 day', week: '7 days' };

/** A Monday at 00:00 UTC: the origin that puts week buckets on ISO weeks. */
const ORIGIN = '2000-01-03 00:00:00';

/** The bucket length of a resolution that aggregates (native and 1H rows are hours). */
export function bucketUnit(resolution: Resolution): BucketUnit {
  return resolution === '1W' ? 'week' : resolution === '1D' ? 'day' : 'hour';
}

/**
 * Start of the UTC hour, day or ISO week (Monday 00:00 UTC) holding a timestamptz expression, as
 * a timestamptz: equal to `date_trunc(unit, ts, 'UTC')` but `date_bin` arithmetic, without the
 * per-row time-zone rules (about 3x cheaper over thousands of rows). The unit is inlined, not a
 * parameter, so the same expression in SELECT and GROUP BY is recognised as one.
 */
export function utcBucket(unit: BucketUnit, instant: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`date_bin(${Prisma.raw(`'${STRIDE[unit]}'`)}, ${instant}, ${Prisma.raw(`timestamptz '${ORIGIN}+00'`)})`;
}

/**
 * The 1D/1W bucket of a UTC `date` expression, as a `timestamp` holding the UTC wall time of the
 * bucket start (ISO weeks start on Monday): {@link utcBucket}'s arithmetic on wall times, so no time
 * zone work runs per row. Turn it into an instant with {@link utcInstant} after grouping.
 */
export function dayBucket(resolution: Resolution, day: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`date_bin(${Prisma.raw(`'${STRIDE[bucketUnit(resolution)]}'`)}, ${day}::timestamp, ${Prisma.raw(`timestamp '${ORIGIN}'`)})`;
}

/** The UTC day (`date`) of a timestamptz expression. */
export function utcDay(instant: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${instant} AT TIME ZONE 'UTC')::date`;
}

/** The instant (timestamptz) of a UTC wall-time `timestamp` expression such as a {@link dayBucket}. */
export function utcInstant(wallTime: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${wallTime} AT TIME ZONE 'UTC')`;
}

/**
 * Epoch milliseconds (float8) of a timestamptz expression: for large results, reading a number and
 * making the Date in JS costs a fraction of the driver's timestamptz text parsing. `date_part` is
 * float8 arithmetic (`extract` is numeric since PostgreSQL 14, three numeric operations per row);
 * rounded, it is exact for every instant in whole milliseconds.
 */
export function epochMs(instant: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`round(date_part('epoch', ${instant}) * 1000)`;
}

/** The IANA time zone of each zone id of a query with `tz` (same order, same length). */
export interface ZoneTimeZones {
  readonly zoneIds: readonly number[];
  readonly names: readonly string[];
}

/** A FROM item `tz(zone_id, name)`: one row per zone id with its IANA time zone name. */
export function zoneTimeZoneTable(tz: ZoneTimeZones): Prisma.Sql {
  return Prisma.sql`unnest(${tz.zoneIds.map(Number)}::smallint[], ${[...tz.names]}::text[]) AS tz(zone_id, name)`;
}

/** The IANA time zone of each border id of a flow query with `tz` (its zone A's), same order. */
export interface BorderTimeZones {
  readonly borderIds: readonly number[];
  readonly names: readonly string[];
}

/** A FROM item `tz(border_id, name)`: one row per border id with its IANA time zone name. */
export function borderTimeZoneTable(tz: BorderTimeZones): Prisma.Sql {
  return Prisma.sql`unnest(${tz.borderIds.map(Number)}::smallint[], ${[...tz.names]}::text[]) AS tz(border_id, name)`;
}

/**
 * Start of the local hour, day or week (Monday 00:00 local) holding a timestamptz expression in
 * the IANA zone `zone` (a text expression), as a timestamptz: a local day lasts 23, 24 or 25 hours.
 */
export function localBucket(unit: BucketUnit, instant: Prisma.Sql, zone: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`date_trunc(${Prisma.raw(`'${unit}'`)}, ${instant}, ${zone})`;
}

/**
 * Hourly zone prices of the price points (alias `p`) a condition selects: per zone and UTC hour,
 * `hour` (timestamptz), `price` = the time-weighted mean Σ price × minutes / Σ minutes in EUR/MWh
 * rounded to 1e-6 EUR/MWh half away from zero (as `hourlyMeanPrice` does in JS), and
 * `interpolated` = whether any of its points is; with `tz`, hours are local hours of each zone's
 * time zone (`date_trunc('hour', ts, zone)`, the UTC hours for whole-hour offsets). The one definition of an hourly price: the 1H
 * prices, the price KPIs and the classification all read it.
 */
export function hourlyPrices(where: Prisma.Sql, tz?: ZoneTimeZones): Prisma.Sql {
  const hour = tz ? localBucket('hour', Prisma.sql`p.ts`, Prisma.sql`tz.name`) : utcBucket('hour', Prisma.sql`p.ts`);
  const from = tz
    ? Prisma.sql`price_point p JOIN ${zoneTimeZoneTable(tz)} ON tz.zone_id = p.zone_id`
    : Prisma.sql`price_point p`;
  return Prisma.sql`
    SELECT p.zone_id, ${hour} AS hour,
           round((sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes))::numeric, ${Prisma.raw(String(HOURLY_PRICE_DECIMALS))})::float8 AS price,
           bool_or(p.interpolated) AS interpolated
    FROM ${from}
    WHERE ${where}
    GROUP BY 1, 2`;
}

/**
 * Dates of epoch milliseconds read in datetime order: consecutive equal instants share one Date
 * (a daily price page repeats each day once per zone), so no allocation per row for them.
 */
export function sharedInstants(): (ms: number) => Date {
  let last = Number.NaN;
  let date = new Date(last);
  return (ms) => {
    if (ms !== last) [last, date] = [ms, new Date(ms)];
    return date;
  };
}
