import type { Database } from '../../db/client.js';
import type { FlowRecord } from '../../domain/records.js';
import { Prisma } from '../../generated/prisma/client.js';
import {
  type CoverPart,
  coarseInPage,
  coverRange,
  finerLevels,
  type PeriodLevel,
  periodUnits,
} from '../../domain/period-cover.js';
import { isoDay } from '../../domain/time.js';
import { dayBucket, epochMs, utcInstant } from '../sql/time.js';
import { read } from '../../db/executor.js';
import { countFlows, findFlowRows } from './read-rows.js';
import { type FlowQuery, flowRowsByBorder, isHourly, localBuckets } from './row-query.js';
import { dailyKeys } from './daily-sums.js';
import { rollupKeyConditions } from './filter.js';

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

/**
 * How many rows a flow query holds at each position in time, in order (no zone codes, no sort of
 * the rows): the page index of offset paging. The sum is the total, and a page is read from the
 * positions it spans only.
 */
export function flowPositionsSql(q: FlowQuery): Prisma.Sql {
  if (!isHourly(q) && q.basis !== 'scheduled' && !localBuckets(q)) return bucketPositionsSql(q);
  return Prisma.sql`
    SELECT ${epochMs(Prisma.sql`f.sort_key`)} AS ms, count(*)::int AS rows, bool_or(f.derived) AS derived
    FROM (${flowRowsByBorder(q)}) f GROUP BY f.sort_key ORDER BY f.sort_key`;
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

/** A row of {@link flowPositionIndexSql}: an entry of the piece `part`. */
export interface PositionIndexRow extends FlowPosition {
  readonly part: number;
}

/** How the statements of offset paging are run: the repositories' `read`, or a bench's own pool. */
export interface PositionReads {
  positions(statement: Prisma.Sql): Promise<FlowPosition[]>;
  index(statement: Prisma.Sql): Promise<PositionIndexRow[]>;
}

/** {@link PositionReads} on a database, by named prepared statements. */
const readsOn = (db: Database): PositionReads => ({
  positions: (s) => read<FlowPosition>(db, 'findFlowPositions', s),
  index: (s) => read<PositionIndexRow>(db, 'findFlowPositionIndex', s),
});

/**
 * A position, or the rows of whole calendar periods (`coarse`) not yet told apart into positions:
 * `ms` is then where those rows begin.
 */
interface IndexEntry extends FlowPosition {
  readonly coarse?: { readonly level: PeriodLevel; readonly from: number; readonly to: number };
}

/**
 * Whether a query's row counts come from the count rollups (border_daily, border_weekly,
 * border_period_count): the physical basis in UTC buckets. Scheduled rows and local buckets have no
 * rollup of their own and are positioned from their rows.
 */
const indexed = (q: FlowQuery): boolean => q.basis !== 'scheduled' && !localBuckets(q);

/** The period levels a query's rows are counted by, coarsest first (hourly ranges span 14 days at most). */
const levelsOf = (q: FlowQuery): PeriodLevel[] => (isHourly(q) ? ['day'] : ['year', 'month']);

/** The count rollup column of a query's rows and of their derived hours. */
function countColumns(q: FlowQuery): [Prisma.Sql, Prisma.Sql] {
  if (isHourly(q)) return [Prisma.raw('c.hours'), Prisma.raw('c.derived_hours')];
  if (q.resolution === '1D') return [Prisma.raw('c.days'), Prisma.raw('c.derived_hours')];
  return [Prisma.raw('c.weeks'), Prisma.raw('c.week_derived_hours')];
}

/**
 * The SELECT of one covered piece as (part, ms, rows, derived): the positions of a fine piece; for
 * whole periods one row per period holding rows, `ms` its first day. Days (hourly rows) come from
 * border_daily, months and years from border_period_count.
 */
function pieceSql(q: FlowQuery, part: number, p: CoverPart): Prisma.Sql {
  const n = Prisma.raw(String(part));
  if (p.level === 'fine') {
    const range = { ...q, from: new Date(p.from), to: new Date(p.to) };
    return Prisma.sql`SELECT ${n} AS part, p.ms, p.rows, p.derived FROM (${flowPositionsSql(range)}) p`;
  }
  const [first, end] = [isoDay(new Date(p.firstUnit)), isoDay(new Date(p.endUnit))];
  if (p.level === 'day') {
    return Prisma.sql`
      SELECT ${n} AS part, ${epochMs(utcInstant(Prisma.sql`c.day::timestamp`))} AS ms, sum(c.hours)::int AS rows,
             bool_or(c.derived_hours > 0) AS derived
      FROM border_daily c
      WHERE c.day >= ${first}::date AND c.day < ${end}::date ${rollupKeyConditions(q, 'c')}
      GROUP BY c.day`;
  }
  const [rows, derived] = countColumns(q);
  return Prisma.sql`
    SELECT ${n} AS part, ${epochMs(utcInstant(Prisma.sql`c.start::timestamp`))} AS ms, sum(${rows})::int AS rows,
           sum(${derived}) > 0 AS derived
    FROM border_period_count c
    WHERE c.span_months = ${Prisma.raw(p.level === 'year' ? '12' : '1')} AND c.start >= ${first}::date
          AND c.start < ${end}::date ${rollupKeyConditions(q, 'c')}
    GROUP BY c.start HAVING sum(${rows}) > 0`;
}

/** SQL of the index entries of covered pieces, in order: (part, ms, rows, derived) ordered by part, ms. */
export function flowPositionIndexSql(q: FlowQuery, parts: readonly CoverPart[]): Prisma.Sql {
  return Prisma.sql`
    SELECT x.part, x.ms, x.rows, x.derived
    FROM (${Prisma.join(
      parts.map((p, i) => pieceSql(q, i, p)),
      ' UNION ALL ',
    )}) x
    ORDER BY x.part, x.ms`;
}

/** The index entries of covered pieces, each with the index of its piece. */
async function readIndex(
  reads: PositionReads,
  q: FlowQuery,
  parts: readonly CoverPart[],
): Promise<(IndexEntry & { part: number })[]> {
  if (!parts.length) return [];
  const rows = await reads.index(flowPositionIndexSql(q, parts));
  return rows.map((r) => {
    const p = parts[r.part] as CoverPart;
    if (p.level === 'fine') return { part: r.part, ms: r.ms, rows: r.rows, derived: r.derived };
    const u = periodUnits(p.level, q.resolution === '1W');
    const from = u.boundary(r.ms);
    const coarse = { level: p.level, from, to: u.boundary(u.next(r.ms)) };
    return { part: r.part, ms: from, rows: r.rows, derived: r.derived, coarse };
  });
}

/**
 * The index of a physical UTC query: whole years and months (whole days for hourly rows) as one
 * entry per period from the count rollups, the rest of the range as positions. One statement, its
 * cost set by the number of periods, not of stored days.
 */
async function readFlowIndex(reads: PositionReads, q: FlowQuery): Promise<IndexEntry[]> {
  return readIndex(reads, q, coverRange(q.from.getTime(), q.to.getTime(), levelsOf(q), q.resolution === '1W'));
}

/**
 * Total rows, derived flag and the query of one offset page (null past the end), read from the
 * index: the periods holding rows of the page are told apart into finer periods, then positions
 * (one small statement per level), so the cost grows with the page, not with the offset or the
 * range. Queries without count rollups read all their positions ({@link flowPositionsSql}).
 */
export async function readFlowOffsetPage(
  reads: PositionReads,
  q: FlowQuery,
  page: { offset: number; limit: number },
): Promise<{ total: number; derived: boolean; rows: FlowQuery | null }> {
  if (!indexed(q)) return offsetPageQuery(await reads.positions(flowPositionsSql(q)), q, page);
  const levels = levelsOf(q);
  let entries = await readFlowIndex(reads, q);
  for (;;) {
    const hit = coarseInPage(entries, (e) => e.coarse !== undefined, page);
    if (!hit.length) break;
    const pieces = hit.map((i) => {
      const c = (entries[i] as IndexEntry).coarse as NonNullable<IndexEntry['coarse']>;
      return coverRange(c.from, c.to, finerLevels(levels, c.level), q.resolution === '1W');
    });
    const refined = await readIndex(reads, q, pieces.flat());
    const next = [...entries];
    let part = pieces.reduce((n, p) => n + p.length, 0);
    for (let k = hit.length - 1; k >= 0; k--) {
      const last = part;
      part -= (pieces[k] as CoverPart[]).length;
      next.splice(hit[k] as number, 1, ...refined.filter((e) => e.part >= part && e.part < last));
    }
    entries = next;
  }
  return offsetPageQuery(entries, q, page);
}

/**
 * One offset page of a flow query with the total row count and whether any row is derived: the
 * page's range from {@link readFlowOffsetPage}, then its rows (a 20,000-row page of 5 years of
 * daily rows sorts 20,000 rows, not 320,000, and a deep offset costs what the first page does).
 */
export async function findFlowOffsetPage(
  db: Database,
  q: FlowQuery,
  page: { offset: number; limit: number },
): Promise<{ total: number; derived: boolean; rows: FlowRecord[] }> {
  const { total, derived, rows } = await readFlowOffsetPage(readsOn(db), q, page);
  return { total, derived, rows: rows ? await findFlowRows(db, rows) : [] };
}

/**
 * Row count of a flow query and whether any row's flow is derived: from the index where the count
 * rollups serve the query (one statement whatever the range), else by counting its rows.
 */
export async function summarizeFlows(db: Database, q: FlowQuery): Promise<{ total: number; derived: boolean }> {
  if (!indexed(q)) return countFlows(db, q);
  const entries = await readFlowIndex(readsOn(db), q);
  return { total: entries.reduce((n, e) => n + e.rows, 0), derived: entries.some((e) => e.derived) };
}
