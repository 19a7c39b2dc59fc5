/**
 * The `price_hourly` rollup: per zone and UTC hour, the hourly zone price as {@link hourlyPrices}
 * defines it (time-weighted mean in EUR/MWh, rounded to 1e-6), whether any of its points is
 * interpolated, and whether the hour is a peak hour of the zone. Kept in step with `price_daily`
 * (refreshed over the same UTC days by `refreshPriceDaily`, in the loader's transaction; a fresh
 * demo load appends it from the generated prices with `appendPriceHours`), so
 * statistics over hourly prices read one row per zone-hour instead of regrouping quarter-hours.
 */
import { HOUR_MS } from '../../domain/calendar.js';
import type { TimeRange } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, run, type Sql } from '../../db/executor.js';
import { hourlyPrices } from '../sql/time.js';

/**
 * Whether the UTC hour `hour` (a timestamptz expression) is a peak hour in the IANA zone `zone`
 * (a text expression): Monday to Friday, hours starting 08:00 to 19:00 local time (DST-aware).
 * Each local part is computed once (`BETWEEN` evaluates its operand twice) and as float8
 * (`date_part`; `extract` is numeric): over a year of quarter-hours this is most of a query.
 */
export function peakHour(hour: Prisma.Sql, zone: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(date_part('isodow', ${hour} AT TIME ZONE ${zone}) < 6
    AND int4range(8, 20) @> date_part('hour', ${hour} AT TIME ZONE ${zone})::int)`;
}

/** Hourly prices of a condition on price points `p`, with their zone's peak flag: zone_id, hour, price, interpolated, peak. */
function taggedHours(where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT hp.zone_id, hp.hour, hp.price, hp.interpolated, ${peakHour(Prisma.sql`hp.hour`, Prisma.sql`z.time_zone`)} AS peak
    FROM (${hourlyPrices(where)}) hp JOIN zone z ON z.id = hp.zone_id`;
}

/** Which hours to recompute: every UTC hour starting in [from, to) (whole hours), optionally for some zones only. */
export interface HourlyRollupWindow {
  readonly from: Date;
  readonly to: Date;
  readonly zoneIds?: readonly number[] | undefined;
}

/**
 * Recomputes `price_hourly` for the whole UTC hours of the window in ONE statement: upserts every
 * (zone, hour) that has points and deletes rollup hours whose points vanished. Loaders reach it
 * through `refreshPriceDaily`, inside their transaction.
 * @returns the number of rollup rows written.
 */
export async function refreshPriceHourly(db: Executor, window: HourlyRollupWindow): Promise<number> {
  const zones = window.zoneIds ? window.zoneIds.map(Number) : null;
  const inZones = (column: Prisma.Sql) => Prisma.sql`(${zones}::int2[] IS NULL OR ${column} = ANY(${zones}::int2[]))`;
  const [from, to] = [window.from, window.to];
  const rows = await run<{ written: number }>(
    db,
    'refreshPriceHourly',
    Prisma.sql`
    WITH agg AS (${taggedHours(Prisma.sql`p.ts >= ${from} AND p.ts < ${to} AND ${inZones(Prisma.sql`p.zone_id`)}`)}
    ), removed AS (
      DELETE FROM price_hourly d
      WHERE d.hour >= ${from} AND d.hour < ${to} AND ${inZones(Prisma.sql`d.zone_id`)}
        AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.zone_id = d.zone_id AND agg.hour = d.hour)
    ), written AS (
      INSERT INTO price_hourly (zone_id, hour, price_eur_mwh, interpolated, peak)
      SELECT zone_id, hour, price, interpolated, peak FROM agg
      ON CONFLICT (zone_id, hour) DO UPDATE SET price_eur_mwh = excluded.price_eur_mwh,
        interpolated = excluded.interpolated, peak = excluded.peak
      RETURNING 1
    )
    SELECT count(*)::int AS written FROM written`,
  );
  return rows[0]?.written ?? 0;
}

/** A range split into the whole UTC hours inside it and the partial hours at its ends. */
export function splitHours(range: TimeRange): { hours: TimeRange | null; edges: TimeRange[] } {
  const from = range.from.getTime();
  const to = range.to.getTime();
  const lo = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const hi = Math.floor(to / HOUR_MS) * HOUR_MS;
  if (lo >= hi) return { hours: null, edges: [range] };
  const edges: TimeRange[] = [];
  if (from < lo) edges.push({ from: range.from, to: new Date(lo) });
  if (hi < to) edges.push({ from: new Date(hi), to: range.to });
  return { hours: { from: new Date(lo), to: new Date(hi) }, edges };
}

/**
 * Hourly prices with peak flags of some zones over [from, to), ordered by zone: whole hours from
 * the rollup, a partial first or last hour from price_point (its points inside the range only),
 * so the rows equal {@link hourlyPrices} over the range. Columns: zone_id, hour, price,
 * interpolated, peak.
 */
export function hourlyPriceRows(range: TimeRange, zoneIds: readonly number[]): Prisma.Sql {
  const ids = zoneIds.map(Number);
  const { hours, edges } = splitHours(range);
  const parts = edges.map((e) =>
    taggedHours(Prisma.sql`p.zone_id = ANY(${ids}::smallint[]) AND p.ts >= ${e.from} AND p.ts < ${e.to}`),
  );
  if (hours) {
    parts.push(Prisma.sql`
      SELECT h.zone_id, h.hour, h.price_eur_mwh AS price, h.interpolated, h.peak
      FROM price_hourly h WHERE h.zone_id = ANY(${ids}::smallint[]) AND h.hour >= ${hours.from} AND h.hour < ${hours.to}`);
  }
  return Prisma.join(parts, ' UNION ALL ');
}

/** Hourly prices computed outside the database (the demo's): every zone over the same consecutive UTC hours. */
export interface PriceHourBlock {
  /** First UTC hour. */
  readonly start: Date;
  readonly hours: number;
  /** Zone ids, in the order of the blocks of `price` and `interpolated`. */
  readonly zoneIds: readonly number[];
  /** EUR/MWh per zone and hour (already rounded as {@link hourlyPrices} rounds), zone by zone. */
  readonly price: readonly number[];
  readonly interpolated: readonly boolean[];
}

/**
 * Appends a block of hourly prices to a `price_hourly` holding none of its keys (a load into a
 * table emptied in its transaction), in one statement, with the peak flag of each zone's time
 * zone; a duplicate key fails the statement.
 */
export async function appendPriceHours(sql: Sql, block: PriceHourBlock): Promise<void> {
  if (block.hours === 0 || block.zoneIds.length === 0) return;
  await run(
    sql,
    'appendPriceHours',
    Prisma.sql`INSERT INTO price_hourly (zone_id, hour, price_eur_mwh, interpolated, peak)
     SELECT z.id, h.hour, h.price, h.interpolated, ${peakHour(Prisma.sql`h.hour`, Prisma.sql`z.time_zone`)}
     FROM (SELECT (${block.zoneIds.map(Number)}::int2[])[(u.n - 1) / ${block.hours}::int + 1] AS zone_id,
                  ${block.start}::timestamptz + ((u.n - 1) % ${block.hours}::int) * interval '1 hour' AS hour,
                  u.price, u.interpolated
           FROM unnest(${[...block.price]}::float8[], ${[...block.interpolated]}::bool[]) WITH ORDINALITY AS u(price, interpolated, n)) h
     JOIN zone z ON z.id = h.zone_id`,
  );
}
