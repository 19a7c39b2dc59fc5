import type { Database } from '../../db/client.js';
import type { Resolution } from '../../domain/resolution.js';
import { isoDay } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { bucketSums, dailyKeys, dailySums, DIR, firstDayFrom, type FlowFilter, FLOW_INTERPOLATED, hourConditions } from './sql.js';
import { type BorderTimeZones, borderTimeZoneTable, bucketUnit, dayBucket, epochMs, localBucket, sharedInstants, utcBucket, utcInstant } from '../sql/time.js';
import { NO_MEMO, type ReadMemo, statementKey } from '../sql/read-memo.js';
import { rollupSourcesStatement } from '../sql/rollup-sources.js';
import { preparedQuery, read } from '../sql/executor.js';

/**
 * One /flows row: a border-hour, or at 1D/1W a bucket of one border direction and flow type.
 * Flows in MW (>= 0, in the row's direction), prices in EUR/MWh, datetimes UTC.
 */
export interface FlowRecord {
  readonly datetime: Date;
  readonly zoneFrom: string;
  readonly zoneTo: string;
  readonly flowType: string;
  readonly flowInterpolated: boolean;
  readonly netFlowMw: number;
  readonly priceFrom: number | null;
  readonly priceTo: number | null;
  readonly capacityMw: number | null;
  readonly hours: number;
  readonly derived: boolean;
}

/** Which flow is classified: measured physical flows (scheduled where missing), or schedules. */
export type FlowBasis = 'physical' | 'scheduled';

/** A flow query: filter, resolution, basis, and either offset paging or a keyset position. */
export interface FlowQuery extends FlowFilter {
  readonly resolution: Resolution;
  readonly basis?: FlowBasis;
  /** 1D/1W buckets in each border's local time zone (its zone A's); omitted: UTC buckets. */
  readonly timeZones?: BorderTimeZones | undefined;
  readonly limit?: number;
  readonly offset?: number;
  readonly after?: { readonly datetime: Date; readonly zoneFrom: string; readonly zoneTo: string; readonly flowType: string };
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
  const types = f.flowTypes.length ? Prisma.sql`AND h.scheduled_flow_type::text = ANY(${[...f.flowTypes]}::text[])` : Prisma.empty;
  const borders = f.borderIds ? Prisma.sql`AND h.border_id = ANY(${f.borderIds.map(Number)}::smallint[])` : Prisma.empty;
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

const isHourly = (q: FlowQuery): boolean => q.resolution === 'native' || q.resolution === '1H';

/** The rows of a flow query before ordering, by border_id and direction (no zone codes yet). */
function flowRowsByBorder(q: FlowQuery): Prisma.Sql {
  if (q.timeZones && !isHourly(q)) {
    return localBucketsOfHours(q.basis === 'scheduled' ? scheduledHourlyRows(q) : hourlyRows(q), q.resolution, q.timeZones);
  }
  return q.basis === 'scheduled'
    ? (isHourly(q) ? scheduledHourlyRows(q) : bucketsOfHours(scheduledHourlyRows(q), q.resolution))
    : (isHourly(q) ? hourlyRows(q) : bucketRows(q, q.resolution));
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
const localBuckets = (q: FlowQuery): boolean => q.timeZones !== undefined && !isHourly(q);

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

interface RawFlow {
  /** Epoch milliseconds: cheaper to read than a timestamptz text for 20,000 rows. */
  datetime_ms: number;
  zone_from: string;
  zone_to: string;
  flow_type: string;
  flow_interpolated: boolean;
  net_flow_mw: number;
  price_from: number | null;
  price_to: number | null;
  capacity_mw: number | null;
  hours: number;
  derived: boolean;
}

/** Records of rows in datetime order: consecutive rows of one position share one Date. */
function toRecords(rows: readonly RawFlow[]): FlowRecord[] {
  const instant = sharedInstants();
  return rows.map((r) => toRecord(r, instant(r.datetime_ms)));
}

const toRecord = (r: RawFlow, datetime: Date): FlowRecord => ({
  datetime,
  zoneFrom: r.zone_from,
  zoneTo: r.zone_to,
  flowType: r.flow_type,
  flowInterpolated: r.flow_interpolated,
  netFlowMw: r.net_flow_mw,
  priceFrom: r.price_from,
  priceTo: r.price_to,
  capacityMw: r.capacity_mw,
  hours: r.hours,
  derived: r.derived,
});

/** The statement of {@link findFlowRows}: {@link RawFlow} rows, `datetime_ms` in epoch ms. */
export function flowRowsStatement(q: FlowQuery): Prisma.Sql {
  const a = q.after;
  // Rows before the keyset position are filtered out (afterPosition); starting the range there too
  // is exact for every resolution (a row's datetime is its bucket start, so every row at or after
  // the position lies wholly inside [position, to)) and lets a deep page skip the rows before it.
  const range = a && a.datetime > q.from && !localBuckets(q) ? { ...q, from: a.datetime } : q;
  const limit = q.limit !== undefined ? Prisma.sql`LIMIT ${q.limit}` : Prisma.empty;
  const offset = q.offset ? Prisma.sql`OFFSET ${q.offset}` : Prisma.empty;
  return Prisma.sql`
    SELECT ${epochMs(Prisma.sql`f.datetime`)} AS datetime_ms, f.zone_from, f.zone_to, f.flow_type,
           f.flow_interpolated, f.net_flow_mw, f.price_from, f.price_to, f.capacity_mw, f.hours, f.derived
    FROM (${flowRowsSql(range)}) f
    ORDER BY f.sort_key, f.zone_from, f.zone_to, f.flow_type
    ${limit} ${offset}`;
}

/**
 * Flow rows ordered by datetime, zone_from, zone_to, flow_type, then sliced by offset or keyset.
 * Read through the driver directly rather than Prisma: a 20,000-row page costs a third less.
 */
export async function findFlowRows(db: Database, q: FlowQuery): Promise<FlowRecord[]> {
  return toRecords(await read<RawFlow>(db, flowRowsStatement(q)));
}

/** Row count of a flow query and whether any row's flow is derived (zone codes are not needed). */
export async function summarizeFlows(db: Database, q: FlowQuery): Promise<{ total: number; derived: boolean }> {
  const [row] = await read<{ total: number; derived: boolean | null }>(db, Prisma.sql`
    SELECT count(*)::int AS total, bool_or(f.derived) AS derived FROM (${flowRowsByBorder(q)}) f`);
  return { total: row?.total ?? 0, derived: row?.derived ?? false };
}

/** The rows a flow query holds at one position in time (an hour, a UTC day or a week start). */
export interface FlowPosition {
  /** The rows' datetime, epoch ms UTC. */
  readonly ms: number;
  readonly rows: number;
  readonly derived: boolean;
}

/**
 * The positions of a 1D/1W query on the physical basis from the keys of the daily sums alone: one
 * key per row at 1D; at 1W the rows of border_weekly as they are (one per week and key) and the
 * distinct week keys of the days around them. No sums are computed and only the days of partial
 * weeks are regrouped (5 years at 1W otherwise regroup 70,000 weekly keys, spilling to disk).
 */
function bucketPositionsSql(q: FlowQuery): Prisma.Sql {
  const keys = dailyKeys(q, q.resolution === '1W');
  const parts: Prisma.Sql[] = [];
  if (keys.days && q.resolution === '1D') parts.push(Prisma.sql`SELECT k.day AS bucket, k.derived FROM (${keys.days}) k`);
  if (keys.days && q.resolution === '1W') {
    parts.push(Prisma.sql`
      SELECT ${dayBucket(q.resolution, Prisma.sql`k.day`)} AS bucket, bool_or(k.derived) AS derived
      FROM (${keys.days}) k GROUP BY 1, k.border_id, k.export_from_a, k.flow_type`);
  }
  if (keys.weekly) parts.push(Prisma.sql`SELECT k.day::timestamp AS bucket, k.derived FROM (${keys.weekly}) k`);
  const start = q.resolution === '1D' ? Prisma.sql`r.bucket::timestamp` : Prisma.sql`r.bucket`;
  return Prisma.sql`
    SELECT ${epochMs(utcInstant(start))} AS ms, count(*)::int AS rows, bool_or(r.derived) AS derived
    FROM (${Prisma.join(parts, ' UNION ALL ')}) r GROUP BY r.bucket ORDER BY r.bucket`;
}

/** SQL of {@link findFlowPositions}. */
export function flowPositionsSql(q: FlowQuery): Prisma.Sql {
  if (!isHourly(q) && q.basis !== 'scheduled' && !localBuckets(q)) return bucketPositionsSql(q);
  return Prisma.sql`
    SELECT ${epochMs(Prisma.sql`f.sort_key`)} AS ms, count(*)::int AS rows, bool_or(f.derived) AS derived
    FROM (${flowRowsByBorder(q)}) f GROUP BY f.sort_key ORDER BY f.sort_key`;
}

/**
 * How many rows a flow query holds at each position in time, in order (no zone codes, no sort of
 * the rows): the page index of offset paging. The sum is the total, and a page is read from the
 * positions it spans only.
 */
export async function findFlowPositions(db: Database, q: FlowQuery): Promise<FlowPosition[]> {
  const statement = flowPositionsSql(q);
  return preparedQuery<FlowPosition>(db, statement.text, statement.values);
}

/**
 * Total rows, derived flag, and the query reading one offset page from the positions it spans only
 * (null when the page is past the end), the range narrowed to them: exact because every row lies
 * wholly inside its own position (hour or bucket).
 */
export function offsetPageQuery(
  positions: readonly FlowPosition[], q: FlowQuery, page: { offset: number; limit: number },
): { total: number; derived: boolean; rows: FlowQuery | null } {
  let total = 0;
  let derived = false;
  let first = -1;
  let before = 0;
  let end = positions.length;
  for (const [i, p] of positions.entries()) {
    if (first < 0 && total + p.rows > page.offset) [first, before] = [i, total];
    total += p.rows;
    derived ||= p.derived;
    if (first >= 0 && end === positions.length && total >= page.offset + page.limit) end = i + 1;
  }
  if (first < 0) return { total, derived, rows: null };
  if (localBuckets(q)) return { total, derived, rows: { ...q, after: undefined, offset: page.offset, limit: page.limit } };
  const from = new Date(Math.max(q.from.getTime(), (positions[first] as FlowPosition).ms));
  const to = end < positions.length ? new Date(Math.min(q.to.getTime(), (positions[end] as FlowPosition).ms)) : q.to;
  return { total, derived, rows: { ...q, from, to, after: undefined, offset: page.offset - before, limit: page.limit } };
}

/**
 * One offset page of a flow query with the total row count and whether any row is derived. The
 * positions come first (one cheap grouped pass); the page is then read from the positions it spans
 * only ({@link offsetPageQuery}): a 20,000-row page of 5 years of daily rows sorts 20,000 rows, not
 * 320,000, and a deep offset costs what the first page does.
 */
export async function findFlowOffsetPage(
  db: Database, q: FlowQuery, page: { offset: number; limit: number },
): Promise<{ total: number; derived: boolean; rows: FlowRecord[] }> {
  const { total, derived, rows } = offsetPageQuery(await findFlowPositions(db, q), q, page);
  return { total, derived, rows: rows ? await findFlowRows(db, rows) : [] };
}

/**
 * The statement of {@link findFlowSources}: the distinct data sources of the border days the range
 * touches, from the daily rollup (5 years: 320,000 rollup rows; about 1 ms by the skip scan).
 */
export function flowSourcesStatement(f: FlowFilter): Prisma.Sql {
  const borders = f.borderIds ? Prisma.sql`AND d.border_id = ANY(${f.borderIds.map(Number).sort((a, b) => a - b)}::smallint[])` : Prisma.empty;
  return rollupSourcesStatement('border_daily', isoDay(f.from), firstDayFrom(f.to), borders);
}

/** Distinct data sources of the border days the range touches ({@link flowSourcesStatement}), kept in `memo`. */
export function findFlowSources(db: Database, f: FlowFilter, memo: ReadMemo = NO_MEMO): Promise<string[]> {
  const statement = flowSourcesStatement(f);
  return memo.get(statementKey(statement), async () => (await read<{ source: string }>(db, statement)).map((r) => r.source));
}
