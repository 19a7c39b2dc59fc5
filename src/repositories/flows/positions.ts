import type { Database } from '../../db/client.js';
import type { FlowRecord } from '../../domain/records.js';
import { Prisma } from '../../generated/prisma/client.js';
import { dayBucket, epochMs, utcInstant } from '../sql/time.js';
import { read } from '../sql/executor.js';
import { findFlowRows } from './rows.js';
import { type FlowQuery, flowRowsByBorder, isHourly, localBuckets } from './rows-sql.js';
import { dailyKeys } from './sql.js';

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
  if (keys.days && q.resolution === '1D')
    parts.push(Prisma.sql`SELECT k.day AS bucket, k.derived FROM (${keys.days}) k`);
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
  return read<FlowPosition>(db, 'findFlowPositions', flowPositionsSql(q));
}

/**
 * Total rows, derived flag, and the query reading one offset page from the positions it spans only
 * (null when the page is past the end), the range narrowed to them: exact because every row lies
 * wholly inside its own position (hour or bucket).
 */
export function offsetPageQuery(
  positions: readonly FlowPosition[],
  q: FlowQuery,
  page: { offset: number; limit: number },
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
  if (localBuckets(q))
    return { total, derived, rows: { ...q, after: undefined, offset: page.offset, limit: page.limit } };
  const from = new Date(Math.max(q.from.getTime(), (positions[first] as FlowPosition).ms));
  const to = end < positions.length ? new Date(Math.min(q.to.getTime(), (positions[end] as FlowPosition).ms)) : q.to;
  return {
    total,
    derived,
    rows: { ...q, from, to, after: undefined, offset: page.offset - before, limit: page.limit },
  };
}

/**
 * One offset page of a flow query with the total row count and whether any row is derived. The
 * positions come first (one cheap grouped pass); the page is then read from the positions it spans
 * only ({@link offsetPageQuery}): a 20,000-row page of 5 years of daily rows sorts 20,000 rows, not
 * 320,000, and a deep offset costs what the first page does.
 */
export async function findFlowOffsetPage(
  db: Database,
  q: FlowQuery,
  page: { offset: number; limit: number },
): Promise<{ total: number; derived: boolean; rows: FlowRecord[] }> {
  const { total, derived, rows } = offsetPageQuery(await findFlowPositions(db, q), q, page);
  return { total, derived, rows: rows ? await findFlowRows(db, rows) : [] };
}
