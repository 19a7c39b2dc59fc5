import type { Resolution } from '../domain/resolution.js';
import { isoDay, splitDays } from '../domain/time.js';
import { Prisma } from '../generated/prisma/client.js';

/** Filters shared by the flow queries: null borderIds means every border, an empty array none. */
export interface FlowFilter {
  readonly from: Date;
  readonly to: Date;
  readonly borderIds: readonly number[] | null;
  readonly flowTypes: readonly string[];
}

/** Direction of a border-hour's row: its exporter, A->B when no direction (near-zero flow, outage). */
export const DIR = Prisma.sql`coalesce(h.export_from_a, true)`;

/**
 * Aggregates of border-hours (alias `h`) grouped by day, border, flow type and direction, in the
 * column order of border_daily after those four keys.
 */
export const HOUR_AGGREGATES = Prisma.sql`count(*)::int AS hours,
  count(*) FILTER (WHERE h.physical_interpolated AND NOT h.flow_derived)::int AS interpolated_hours,
  count(*) FILTER (WHERE h.flow_derived)::int AS derived_hours,
  coalesce(sum(h.net_flow_mw), 0) AS net_flow_sum,
  count(*) FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL)::int AS price_hours,
  coalesce(sum(CASE WHEN ${DIR} THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_from_sum,
  coalesce(sum(CASE WHEN ${DIR} THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_to_sum,
  coalesce(sum(CASE WHEN ${DIR} THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END), 0) AS capacity_sum,
  count(CASE WHEN ${DIR} THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END)::int AS capacity_hours,
  array_remove(array_agg(DISTINCT coalesce(h.physical_source, h.scheduled_source, h.ntc_source)), NULL) AS sources`;

/** SQL conditions of a filter on border_hour aliased `h` (assessed hours only). */
export function hourConditions(f: FlowFilter): Prisma.Sql {
  const borders = f.borderIds ? Prisma.sql`AND h.border_id = ANY(${f.borderIds.map(Number)}::smallint[])` : Prisma.empty;
  const types = f.flowTypes.length ? Prisma.sql`AND h.flow_type::text = ANY(${[...f.flowTypes]}::text[])` : Prisma.empty;
  return Prisma.sql`h.ts >= ${f.from} AND h.ts < ${f.to} AND h.flow_type IS NOT NULL ${borders} ${types}`;
}

/**
 * Daily sums per border, direction and flow type over [from, to): whole UTC days from the
 * border_daily rollup, partial first and last days aggregated from border_hour the same way (index
 * ranges, never a scan of the whole range), so the union equals aggregating border_hour over it. Columns: day, border_id, flow_type,
 * export_from_a, hours, interpolated_hours, derived_hours, net_flow_sum, price_hours, price_from_sum,
 * price_to_sum, capacity_sum, capacity_hours, sources. `day` is the UTC day as a `date`: bucket it
 * with {@link dayBucket} and turn buckets into instants with {@link utcInstant} after grouping, so
 * no time zone work runs per rollup row (5 years of 59 borders are 320,000 rows).
 */
export function dailySums(f: FlowFilter): Prisma.Sql {
  const { days, edges } = splitDays(f);
  const borders = f.borderIds ? Prisma.sql`AND d.border_id = ANY(${f.borderIds.map(Number)}::smallint[])` : Prisma.empty;
  const types = f.flowTypes.length ? Prisma.sql`AND d.flow_type::text = ANY(${[...f.flowTypes]}::text[])` : Prisma.empty;
  const parts: Prisma.Sql[] = edges.map(
    (e) => Prisma.sql`
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, ${DIR} AS export_from_a, ${HOUR_AGGREGATES}
      FROM border_hour h WHERE ${hourConditions({ ...f, ...e })}
      GROUP BY 1, 2, 3, 4`,
  );
  if (days) {
    parts.push(Prisma.sql`
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, d.hours,
             d.interpolated_hours, d.derived_hours, d.net_flow_sum, d.price_hours, d.price_from_sum, d.price_to_sum,
             d.capacity_sum, d.capacity_hours, d.sources
      FROM border_daily d
      WHERE d.day >= ${isoDay(days.from)}::date AND d.day < ${isoDay(days.to)}::date ${borders} ${types}`);
  }
  return Prisma.join(parts, ' UNION ALL ');
}

/** `date_trunc` unit of an aggregated resolution. */
export function bucketUnit(resolution: Resolution): 'day' | 'week' {
  return resolution === '1W' ? 'week' : 'day';
}

/**
 * The 1D/1W bucket of a UTC `date` expression, as a `timestamp` holding the UTC wall time of the
 * bucket start (ISO weeks start on Monday). The unit is inlined, not a parameter, so the same
 * expression in SELECT and GROUP BY is recognised as one.
 */
export function dayBucket(resolution: Resolution, day: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`date_trunc(${Prisma.raw(`'${bucketUnit(resolution)}'`)}, ${day}::timestamp)`;
}

/**
 * Epoch milliseconds (float8) of a timestamptz expression: for large results, reading a number and
 * making the Date in JS costs a fraction of the driver's timestamptz text parsing.
 */
export function epochMs(instant: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(extract(epoch FROM ${instant}) * 1000)::float8`;
}

/** The instant (timestamptz) of a UTC wall-time `timestamp` expression such as a {@link dayBucket}. */
export function utcInstant(wallTime: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${wallTime} AT TIME ZONE 'UTC')`;
}

/**
 * The first UTC day (`YYYY-MM-DD`) starting at or after an instant: `day < firstDayFrom(to)` keeps
 * exactly the days that start before `to`, as an index range on a `date` column.
 */
export function firstDayFrom(instant: Date): string {
  const dayMs = 86_400_000;
  return isoDay(new Date(Math.ceil(instant.getTime() / dayMs) * dayMs));
}
