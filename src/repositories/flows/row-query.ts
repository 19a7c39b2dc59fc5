import type { Resolution } from '../../domain/resolution.js';
import type { FlowBasis } from '../../domain/records.js';
import { Prisma } from '../../generated/prisma/client.js';
import { bucketSums, dailySums } from './daily-sums.js';
import { DIR, type FlowFilter, FLOW_INTERPOLATED, hourConditions } from './filter.js';
import {
  type BorderTimeZones,
  borderTimeZoneTable,
  bucketUnit,
  dayBucket,
  localBucket,
  utcBucket,
  utcInstant,
} from '../sql/time.js';

/** A flow query: filter, resolution, basis, and either offset paging or a keyset position. */
export interface FlowQuery extends FlowFilter {
  readonly resolution: Resolution;
  readonly basis?: FlowBasis;
  /** 1D/1W buckets in each border's local time zone (its zone A's); omitted: UTC buckets. */
  readonly timeZones?: BorderTimeZones | undefined;
  readonly limit?: number;
  readonly offset?: number;
  readonly after?: {
    readonly datetime: Date;
    readonly zoneFrom: string;
    readonly zoneTo: string;
    readonly flowType: string;
  };
}

function hourlyRows(f: FlowFilter): Prisma.Sql {
  return Prisma.sql`
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, ${DIR} AS export_from_a, h.flow_type::text AS flow_type,
           ${FLOW_INTERPOLATED} AS flow_interpolated,
           coalesce(h.net_flow_mw, 0) AS net_flow_mw,
           CASE WHEN ${DIR} THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN ${DIR} THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN ${DIR} THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, h.flow_derived AS derived
    FROM border_hour h
    WHERE ${hourConditions(f)}`;
}

/** DIR on the scheduled basis. */
const SDIR = Prisma.sql`coalesce(h.scheduled_export_from_a, true)`;

/** Hourly rows classified on scheduled exchanges (A09), computed by the same rules. */
function scheduledHourlyRows(f: FlowFilter): Prisma.Sql {
  const types = f.flowTypes.length
    ? Prisma.sql`AND h.scheduled_flow_type::text = ANY(${[...f.flowTypes]}::text[])`
    : Prisma.empty;
  const borders = f.borderIds
    ? Prisma.sql`AND h.border_id = ANY(${f.borderIds.map(Number)}::smallint[])`
    : Prisma.empty;
  return Prisma.sql`
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, ${SDIR} AS export_from_a, h.scheduled_flow_type::text AS flow_type,
           h.scheduled_interpolated AS flow_interpolated,
           abs(coalesce(h.scheduled_ab_mw, 0) - coalesce(h.scheduled_ba_mw, 0)) AS net_flow_mw,
           CASE WHEN ${SDIR} THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN ${SDIR} THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN ${SDIR} THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, false AS derived
    FROM border_hour h
    WHERE h.ts >= ${f.from} AND h.ts < ${f.to} AND h.scheduled_flow_type IS NOT NULL ${borders} ${types}`;
}

/** Buckets of hourly rows aggregated directly (the scheduled basis has no rollup). */
function bucketsOfHours(hours: Prisma.Sql, resolution: Resolution): Prisma.Sql {
  return Prisma.sql`
    SELECT y.*, y.datetime AS sort_key FROM (
      SELECT ${utcBucket(bucketUnit(resolution), Prisma.sql`x.datetime`)} AS datetime, x.border_id, x.export_from_a, x.flow_type,
             bool_or(x.flow_interpolated) AS flow_interpolated, avg(x.net_flow_mw) AS net_flow_mw,
             avg(x.price_from) AS price_from, avg(x.price_to) AS price_to, avg(x.capacity_mw) AS capacity_mw,
             count(*)::int AS hours, bool_or(x.derived) AS derived
      FROM (${hours}) x GROUP BY 1, 2, 3, 4) y`;
}

/**
 * Local 1D/1W buckets (each border in its own time zone) aggregated from hourly rows: the UTC-day
 * rollups cannot serve days of 23 or 25 hours. Means as the rollup path computes them: prices over
 * the hours with both prices, capacity over the hours with one.
 */
function localBucketsOfHours(hours: Prisma.Sql, resolution: Resolution, tz: BorderTimeZones): Prisma.Sql {
  const both = Prisma.sql`x.price_from IS NOT NULL AND x.price_to IS NOT NULL`;
  return Prisma.sql`
    SELECT y.*, y.datetime AS sort_key FROM (
      SELECT ${localBucket(bucketUnit(resolution), Prisma.sql`x.datetime`, Prisma.sql`tz.name`)} AS datetime, x.border_id, x.export_from_a, x.flow_type,
             bool_or(x.flow_interpolated) AS flow_interpolated, avg(x.net_flow_mw) AS net_flow_mw,
             avg(x.price_from) FILTER (WHERE ${both}) AS price_from, avg(x.price_to) FILTER (WHERE ${both}) AS price_to,
             avg(x.capacity_mw) AS capacity_mw, count(*)::int AS hours, bool_or(x.derived) AS derived
      FROM (${hours}) x JOIN ${borderTimeZoneTable(tz)} ON tz.border_id = x.border_id
      GROUP BY 1, 2, 3, 4) y`;
}

/**
 * 1D/1W rows from the daily sums. At 1D every (day, border, direction, flow type) occurs once in
 * the sums (whole days and the partial edge days are disjoint), so the rows are computed per sum
 * row without grouping; at 1W they are grouped on the week of the `date`, and only the bucket
 * start of each group is turned into an instant.
 */
function bucketRows(f: FlowFilter, resolution: Resolution): Prisma.Sql {
  if (resolution === '1D') {
    return Prisma.sql`
      SELECT ${utcInstant(Prisma.sql`s.day::timestamp`)} AS datetime, s.day AS sort_key, s.border_id, s.export_from_a,
             s.flow_type::text AS flow_type, s.interpolated_hours > 0 AS flow_interpolated,
             s.net_flow_sum / s.hours AS net_flow_mw,
             s.price_from_sum / nullif(s.price_hours, 0) AS price_from,
             s.price_to_sum / nullif(s.price_hours, 0) AS price_to,
             s.capacity_sum / nullif(s.capacity_hours, 0) AS capacity_mw,
             s.hours, s.derived_hours > 0 AS derived
      FROM (${dailySums(f)}) s`;
  }
  const bucket = dayBucket(resolution, Prisma.sql`s.day`);
  return Prisma.sql`
    SELECT ${utcInstant(bucket)} AS datetime, ${bucket} AS sort_key, s.border_id, s.export_from_a,
           s.flow_type::text AS flow_type, sum(s.interpolated_hours) > 0 AS flow_interpolated,
           sum(s.net_flow_sum) / sum(s.hours) AS net_flow_mw,
           sum(s.price_from_sum) / nullif(sum(s.price_hours), 0) AS price_from,
           sum(s.price_to_sum) / nullif(sum(s.price_hours), 0) AS price_to,
           sum(s.capacity_sum) / nullif(sum(s.capacity_hours), 0) AS capacity_mw,
           sum(s.hours)::int AS hours, sum(s.derived_hours) > 0 AS derived
    FROM (${bucketSums(f, resolution)}) s
    GROUP BY ${bucket}, s.border_id, s.export_from_a, s.flow_type`;
}

export const isHourly = (q: FlowQuery): boolean => q.resolution === 'native' || q.resolution === '1H';

/** The rows of a flow query before ordering, by border_id and direction (no zone codes yet). */
export function flowRowsByBorder(q: FlowQuery): Prisma.Sql {
  if (q.timeZones && !isHourly(q)) {
    return localBucketsOfHours(
      q.basis === 'scheduled' ? scheduledHourlyRows(q) : hourlyRows(q),
      q.resolution,
      q.timeZones,
    );
  }
  return q.basis === 'scheduled'
    ? isHourly(q)
      ? scheduledHourlyRows(q)
      : bucketsOfHours(scheduledHourlyRows(q), q.resolution)
    : isHourly(q)
      ? hourlyRows(q)
      : bucketRows(q, q.resolution);
}

/**
 * The rows of a flow query before ordering, with zone codes of the row's direction and `sort_key`,
 * the row's position in time (its hour, UTC day or week start) ordered as `datetime` is. Hourly rows
 * look their codes up laterally (OFFSET 0 keeps the lookup from being flattened into hash joins,
 * and the planner memoizes it per border and direction): a join that keeps the rows in the order
 * they are read, so rows read in `ts` order from the index need only an incremental sort per hour,
 * and a keyset page of 1,000 rows reads about 1,000 border-hours instead of the whole range.
 * Bucket rows (not read in order anyway) join the catalogue the plain way.
 */
export function flowRowsSql(q: FlowQuery): Prisma.Sql {
  const codes = isHourly(q)
    ? Prisma.sql`
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to
      FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
      WHERE b.id = r.border_id
      OFFSET 0) p`
    : Prisma.sql`
    JOIN border b ON b.id = r.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to) p`;
  return Prisma.sql`
    SELECT r.datetime, r.sort_key, p.zone_from, p.zone_to,
           r.flow_type COLLATE "C" AS flow_type, r.flow_interpolated, r.net_flow_mw::float8, r.price_from::float8, r.price_to::float8,
           r.capacity_mw::float8, r.hours, r.derived
    FROM (${flowRowsByBorder(q)}) r ${codes}
    ${q.after ? Prisma.sql`WHERE ${afterPosition(q.after)}${localBuckets(q) ? Prisma.sql` AND r.datetime >= ${q.after.datetime}::timestamptz` : Prisma.empty}` : Prisma.empty}`;
}

/**
 * Local 1D/1W buckets: borders in different time zones start their buckets at different instants,
 * so a bucket may begin before a position and end after the next: ranges are never narrowed to
 * positions (that would cut buckets short).
 */
export const localBuckets = (q: FlowQuery): boolean => q.timeZones !== undefined && !isHourly(q);

/** Border directions (border_id, export_from_a) whose (zone from, zone to) compares to a pair as `op` says. */
const directionsWhere = (op: '>' | '=', zoneFrom: string, zoneTo: string) => Prisma.sql`
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        ${Prisma.raw(op)} (${zoneFrom}, ${zoneTo})`;

/**
 * The keyset condition (datetime, zone_from, zone_to, flow_type) > cursor, on rows `r` of a range
 * starting at the cursor's datetime: written on the row's border and direction instead of its zone
 * codes (the two small sets of directions are computed once), so it is checked where the rows are
 * read and the lateral code lookup stays memoized: a deep page costs what the first page does.
 */
function afterPosition(a: NonNullable<FlowQuery['after']>): Prisma.Sql {
  return Prisma.sql`(r.datetime > ${a.datetime}::timestamptz
    OR (r.border_id, r.export_from_a) IN (${directionsWhere('>', a.zoneFrom, a.zoneTo)})
    OR ((r.border_id, r.export_from_a) IN (${directionsWhere('=', a.zoneFrom, a.zoneTo)}) AND r.flow_type COLLATE "C" > ${a.flowType}))`;
}
