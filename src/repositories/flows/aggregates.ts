import { currentRequestSignal } from '../../deadline.js';
import type { Database } from '../../db/client.js';
import type { Resolution } from '../../domain/resolution.js';
import { type BucketBounds, bucketBatches, readInBatches, type RowBatches } from '../../domain/row-batches.js';
import { isoDay, splitDays, type TimeRange } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { zoneHours } from './rollup.js';
import { dailyHours } from './daily-sums.js';
import { type FlowFilter, hourConditions } from './filter.js';
import {
  type BorderTimeZones,
  borderTimeZoneTable,
  bucketUnit,
  dayBucket,
  epochMs,
  localBucket,
  utcBucket,
  utcDay,
  utcInstant,
  zoneTimeZoneTable,
  type ZoneTimeZones,
} from '../sql/time.js';
import { read } from '../../db/executor.js';

/** Hours per flow type of one border (stored orientation A->B) in one UTC bucket. */
export interface FlowTypeCounts {
  readonly day: Date;
  readonly zoneA: string;
  readonly zoneB: string;
  readonly convergence: number;
  readonly congestion: number;
  readonly counterIntuitive: number;
  readonly outage: number;
  readonly hours: number;
}

/**
 * Assessed hours per border and bucket, by flow type, from the daily rollup (1D or 1W buckets).
 * Read through the driver (not Prisma), with bucket starts as epoch ms: 15,000 rows for 5 years of
 * weeks, where Prisma's row mapping and timestamp parsing cost more than the aggregation's tail.
 */
export async function findFlowTypeCounts(
  db: Database,
  f: FlowFilter,
  resolution: Resolution,
  tz?: BorderTimeZones,
): Promise<FlowTypeCounts[]> {
  return readFlowTypeCounts(db, f, resolution, tz, {});
}

/**
 * {@link findFlowTypeCounts} in batches of `bucketsPerBatch` UTC days or ISO weeks each, read one
 * after the other as the batches are taken (see `readAhead`), in the same order. At UTC buckets a
 * batch is the same statement over the batch's part of the range; with `tz` (local buckets, which
 * straddle any UTC cut) it counts the hours from the cut on and keeps the buckets starting
 * between its cuts.
 */
export function flowTypeCountBatches(
  db: Database,
  f: FlowFilter,
  resolution: Resolution,
  bucketsPerBatch: number,
  tz?: BorderTimeZones,
): RowBatches<FlowTypeCounts> {
  const unit = bucketUnit(resolution) === 'week' ? 'week' : 'day';
  return readInBatches(
    bucketBatches(f, unit, bucketsPerBatch, tz !== undefined),
    (b) => readFlowTypeCounts(db, { ...f, ...b.range }, resolution, tz, b.buckets),
    currentRequestSignal(),
  );
}

async function readFlowTypeCounts(
  db: Database,
  f: FlowFilter,
  resolution: Resolution,
  tz: BorderTimeZones | undefined,
  buckets: BucketBounds,
): Promise<FlowTypeCounts[]> {
  const sums = tz ? localFlowTypeSums(f, resolution, tz, buckets) : utcFlowTypeSums(f, resolution);
  const statement = Prisma.sql`
    SELECT ${epochMs(tz ? Prisma.sql`s.bucket` : utcInstant(Prisma.sql`s.bucket::timestamp`))} AS day_ms, za.code COLLATE "C" AS "zoneA", zb.code COLLATE "C" AS "zoneB",
           s.convergence, s.congestion, s.counter_intuitive AS "counterIntuitive", s.outage, s.hours
    FROM (${sums}) s
    JOIN border b ON b.id = s.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    ORDER BY s.bucket, 2, 3`;
  const rows = await read<Omit<FlowTypeCounts, 'day'> & { day_ms: number }>(db, 'findFlowTypeCounts', statement);
  // Object literals, not spreads: the driver's row objects are slow to copy property by property.
  return rows.map((r) => ({
    day: new Date(r.day_ms),
    zoneA: r.zoneA,
    zoneB: r.zoneB,
    convergence: r.convergence,
    congestion: r.congestion,
    counterIntuitive: r.counterIntuitive,
    outage: r.outage,
    hours: r.hours,
  }));
}

/** Hours per flow type of the rows `d` of one border and bucket, in the column order of the counts. */
const TYPE_HOURS = Prisma.sql`
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'convergence'), 0)::int AS convergence,
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'congestion'), 0)::int AS congestion,
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'counter_intuitive'), 0)::int AS counter_intuitive,
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'outage'), 0)::int AS outage,
             sum(d.hours)::int AS hours`;

/**
 * Hours per flow type of each border in UTC days or ISO weeks; `bucket` is the bucket's first day
 * (`date`). The whole weeks of border_weekly are grouped by their own `week` (already the bucket:
 * a grouping in the index's order), the days and hours around them by their bucket; the two never
 * share a bucket.
 */
function utcFlowTypeSums(f: FlowFilter, resolution: Resolution): Prisma.Sql {
  const { days, weekly } = dailyHours(f, resolution === '1W');
  const parts: Prisma.Sql[] = [];
  if (days) {
    parts.push(Prisma.sql`
      SELECT ${dayBucket(resolution, Prisma.sql`d.day`)}::date AS bucket, d.border_id, ${TYPE_HOURS}
      FROM (${days}) d
      GROUP BY 1, 2`);
  }
  if (weekly) {
    parts.push(Prisma.sql`
      SELECT d.day AS bucket, d.border_id, ${TYPE_HOURS}
      FROM (${weekly}) d
      GROUP BY d.day, d.border_id`);
  }
  return parts.length
    ? Prisma.join(parts, ' UNION ALL ')
    : Prisma.sql`SELECT NULL::date AS bucket, NULL::smallint AS border_id, 0 AS convergence, 0 AS congestion, 0 AS counter_intuitive, 0 AS outage, 0 AS hours WHERE false`;
}

/**
 * Hours per flow type of each border in local days or weeks of its zone A's time zone, counted
 * from border_hour (the UTC-day rollups cannot serve local days); `bucket` is a timestamptz.
 */
function localFlowTypeSums(
  f: FlowFilter,
  resolution: Resolution,
  tz: BorderTimeZones,
  buckets: BucketBounds,
): Prisma.Sql {
  const bucket = localBucket(bucketUnit(resolution), Prisma.sql`h.ts`, Prisma.sql`tz.name`);
  const from = buckets.from ? Prisma.sql`AND ${bucket} >= ${buckets.from}` : Prisma.empty;
  const to = buckets.to ? Prisma.sql`AND ${bucket} < ${buckets.to}` : Prisma.empty;
  return Prisma.sql`
      SELECT ${bucket} AS bucket, h.border_id,
             (count(*) FILTER (WHERE h.flow_type = 'convergence'))::int AS convergence,
             (count(*) FILTER (WHERE h.flow_type = 'congestion'))::int AS congestion,
             (count(*) FILTER (WHERE h.flow_type = 'counter_intuitive'))::int AS counter_intuitive,
             (count(*) FILTER (WHERE h.flow_type = 'outage'))::int AS outage,
             count(*)::int AS hours
      FROM border_hour h JOIN ${borderTimeZoneTable(tz)} ON tz.border_id = h.border_id
      WHERE ${hourConditions(f)} ${from} ${to}
      GROUP BY 1, 2
    `;
}

/** Counter-intuitive and assessed hours of one zone in one bucket. */
export interface CiCounts {
  readonly day: Date;
  readonly zone: string;
  readonly ciHours: number;
  readonly totalHours: number;
}

function zoneDaySums(range: TimeRange, zoneIds: readonly number[] | null): Prisma.Sql {
  const { days, edges } = splitDays(range);
  const parts = edges.map(
    (e) => Prisma.sql`
      SELECT ${utcDay(Prisma.sql`zh.ts`)} AS day, zh.zone_id, (count(*) FILTER (WHERE zh.ci))::int AS ci, count(*)::int AS total
      FROM (${zoneHours(e.from, e.to, zoneIds ?? [])}) zh GROUP BY 1, 2`,
  );
  if (days) {
    const zones = zoneIds ? Prisma.sql`AND d.zone_id = ANY(${zoneIds.map(Number)}::smallint[])` : Prisma.empty;
    parts.push(Prisma.sql`
      SELECT d.day, d.zone_id, d.ci_hours AS ci, d.assessed_hours AS total
      FROM zone_daily d WHERE d.day >= ${isoDay(days.from)}::date AND d.day < ${isoDay(days.to)}::date ${zones}`);
  }
  return Prisma.join(parts, ' UNION ALL ');
}

function zoneHourSums(range: TimeRange, zoneIds: readonly number[] | null): Prisma.Sql {
  return Prisma.sql`
    SELECT zh.ts AS day, zh.zone_id, CASE WHEN zh.ci THEN 1 ELSE 0 END AS ci, 1 AS total
    FROM (${zoneHours(range.from, range.to, zoneIds ?? [])}) zh`;
}

/**
 * Counter-intuitive share per zone and bucket (docs/contract.md#rows): ci = hours with a counter-intuitive flow
 * leaving the zone, total = hours with an assessed flow at any of its borders. Hourly buckets at
 * native/1H, else from the zone_daily rollup; with `tz`, 1D/1W are local days or weeks of each
 * zone's time zone counted from its hours. An empty zoneIds array selects nothing; null all.
 */
export async function findCiCounts(
  db: Database,
  range: TimeRange,
  zoneIds: readonly number[] | null,
  resolution: Resolution,
  tz?: ZoneTimeZones,
): Promise<CiCounts[]> {
  return readCiCounts(db, range, zoneIds, resolution, tz, {});
}

/**
 * {@link findCiCounts} in batches of `daysOrWeeksPerBatch` UTC days (native, 1H, 1D) or ISO weeks
 * (1W) each, read one after the other as the batches are taken, in the same order (see
 * `bucketBatches`: with `tz`, local days and weeks are each counted whole in one batch).
 */
export function ciCountBatches(
  db: Database,
  range: TimeRange,
  zoneIds: readonly number[] | null,
  resolution: Resolution,
  daysOrWeeksPerBatch: number,
  tz?: ZoneTimeZones,
): RowBatches<CiCounts> {
  const unit = resolution === '1W' ? 'week' : 'day';
  const local = tz !== undefined && !isHourly(resolution);
  return readInBatches(
    bucketBatches(range, unit, daysOrWeeksPerBatch, local),
    (b) => readCiCounts(db, b.range, zoneIds, resolution, tz, b.buckets),
    currentRequestSignal(),
  );
}

const isHourly = (resolution: Resolution) => resolution === 'native' || resolution === '1H';

async function readCiCounts(
  db: Database,
  range: TimeRange,
  zoneIds: readonly number[] | null,
  resolution: Resolution,
  tz: ZoneTimeZones | undefined,
  buckets: BucketBounds,
): Promise<CiCounts[]> {
  const hourly = isHourly(resolution);
  const local = tz && !hourly;
  const sums = hourly || local ? zoneHourSums(range, zoneIds) : zoneDaySums(range, zoneIds);
  // Hourly sums carry instants; daily sums carry UTC `date`s, bucketed without per-row time zone work.
  const bucket = local
    ? localBucket(bucketUnit(resolution), Prisma.sql`u.day`, Prisma.sql`tz.name`)
    : hourly
      ? utcBucket('hour', Prisma.sql`u.day`)
      : dayBucket(resolution, Prisma.sql`u.day`);
  const instant = hourly || local ? Prisma.sql`s.bucket` : utcInstant(Prisma.sql`s.bucket`);
  const zones = local ? Prisma.sql` JOIN ${zoneTimeZoneTable(tz)} ON tz.zone_id = u.zone_id` : Prisma.empty;
  const from = buckets.from ? Prisma.sql` AND s.bucket >= ${buckets.from}` : Prisma.empty;
  const to = buckets.to ? Prisma.sql` AND s.bucket < ${buckets.to}` : Prisma.empty;
  const statement = Prisma.sql`
    SELECT ${epochMs(instant)} AS day_ms, z.code COLLATE "C" AS zone, s.ci::int AS "ciHours", s.total::int AS "totalHours"
    FROM (SELECT ${bucket} AS bucket, u.zone_id, sum(u.ci) AS ci, sum(u.total) AS total
          FROM (${sums}) u${zones} GROUP BY 1, 2) s
    JOIN zone z ON z.id = s.zone_id
    WHERE s.total > 0${from}${to}
    ORDER BY s.bucket, 2`;
  const rows = await read<Omit<CiCounts, 'day'> & { day_ms: number }>(db, 'findCiCounts', statement);
  return rows.map((r) => ({ day: new Date(r.day_ms), zone: r.zone, ciHours: r.ciHours, totalHours: r.totalHours }));
}
