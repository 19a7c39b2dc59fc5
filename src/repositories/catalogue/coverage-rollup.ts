/**
 * The `coverage` rollup: per data kind, subject (zone for prices, border otherwise) and source, the
 * first and last stored period. Loaders refresh it in their transaction for the subjects and window
 * they wrote, reading the facts inside that window only (plus, when a reload emptied the ends of a
 * series, one index probe from the window's edge); bulk loads and deletes of whole data sets rebuild it.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, run } from '../../db/executor.js';

/** A border data kind of the coverage rollup stored hour by hour. */
export type HourKind = 'physical' | 'scheduled' | 'ntc';

/** A data kind of the coverage rollup stored period by period (outages are intervals). */
export type PeriodKind = 'prices' | HourKind;

/** A data kind of the coverage rollup. */
export type CoverageKind = PeriodKind | 'outages';

interface FactTable {
  readonly table: string;
  readonly subject: string;
  readonly present: string;
  readonly source: string;
}

const FACTS: Record<PeriodKind, FactTable> = {
  prices: { table: 'price_point', subject: 'zone_id', present: 'true', source: 'source' },
  physical: {
    table: 'border_hour',
    subject: 'border_id',
    present: '(physical_ab_mw IS NOT NULL OR physical_ba_mw IS NOT NULL)',
    source: 'physical_source',
  },
  scheduled: {
    table: 'border_hour',
    subject: 'border_id',
    present: '(scheduled_ab_mw IS NOT NULL OR scheduled_ba_mw IS NOT NULL)',
    source: 'scheduled_source',
  },
  ntc: {
    table: 'border_hour',
    subject: 'border_id',
    present: '(ntc_ab_mw IS NOT NULL OR ntc_ba_mw IS NOT NULL)',
    source: 'ntc_source',
  },
};

/** End of the period starting at `last` of subject `subject` (prices: the point's own period; border kinds: one hour). */
const LAST_END = Prisma.sql`CASE WHEN c.kind = 'prices'
  THEN (SELECT p.ts + make_interval(mins => p.period_minutes) FROM price_point p WHERE p.zone_id = c.subject_id AND p.ts = c.last_start)
  ELSE c.last_start + interval '1 hour' END`;

/** Per (subject, source) first and last period start of one kind, over rows matching `where`. */
function spanSql(kind: PeriodKind, where: Prisma.Sql): Prisma.Sql {
  const f = FACTS[kind];
  return Prisma.sql`SELECT ${Prisma.raw(f.subject)}::int2 AS subject_id, ${Prisma.raw(`'${kind}'`)}::"CoverageKind" AS kind, coalesce(${Prisma.raw(f.source)}::text, '') AS source,
            min(ts) AS first_start, max(ts) AS last_start
          FROM ${Prisma.raw(f.table)} WHERE ${Prisma.raw(f.present)} AND ${where} GROUP BY 1, 3`;
}

const OUTAGES_SQL = (
  where: Prisma.Sql,
) => Prisma.sql`SELECT border_id AS subject_id, 'outages'::"CoverageKind" AS kind, source::text AS source,
    min(starts_at) AS first_start, max(starts_at) AS last_start, max(ends_at) AS last_end
  FROM border_outage WHERE ${where} GROUP BY 1, 3`;

const INSERT_COVERAGE = Prisma.sql`INSERT INTO coverage (subject_id, kind, source, first_start, last_start, last_end)`;

/**
 * First keys of the advisory locks of the subjects whose rollup rows a transaction rewrites (zones,
 * borders; the second key is the id): a hash of the class and the schema, since advisory locks are
 * shared by every schema of a database and loads into one schema must not wait for another's.
 */
const LOCK_CLASS = {
  zones: Prisma.sql`hashtext('coverage:zones:' || current_schema())`,
  borders: Prisma.sql`hashtext('coverage:borders:' || current_schema())`,
} as const;

/**
 * Serialises refreshes of the same subjects of this schema until the transaction ends, so
 * concurrent loaders of one zone or border each read the rows the other committed (taken in id
 * order: no deadlock between two refreshes).
 */
async function lockSubjects(db: Executor, subjects: keyof typeof LOCK_CLASS, ids: readonly number[]): Promise<void> {
  await run(
    db,
    'lockSubjects',
    Prisma.sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS[subjects]}, id) FROM unnest(${[...ids]}::int[]) AS id ORDER BY id`,
  );
}

/** Recomputes the outage coverage of the given borders from border_outage (a few rows per border). */
export async function refreshOutageCoverage(db: Executor, borderIds: readonly number[]): Promise<void> {
  if (borderIds.length === 0) return;
  const ids = [...new Set(borderIds.map(Number))];
  await lockSubjects(db, 'borders', ids);
  await run(
    db,
    'deleteOutageCoverage',
    Prisma.sql`DELETE FROM coverage WHERE kind = 'outages' AND subject_id = ANY(${ids}::int2[])`,
  );
  await run(
    db,
    'insertOutageCoverage',
    Prisma.sql`${INSERT_COVERAGE} ${OUTAGES_SQL(Prisma.sql`border_id = ANY(${ids}::int2[])`)}`,
  );
}

/**
 * Rebuilds the whole rollup from the facts in one statement each (a pass over every stored fact):
 * for bulk loads and deletes of whole data sets, which pass over them anyway.
 */
export async function rebuildCoverage(db: Executor): Promise<void> {
  await run(db, 'deleteAllCoverage', Prisma.sql`DELETE FROM coverage`);
  for (const kind of Object.keys(FACTS) as PeriodKind[]) {
    await run(
      db,
      'rebuildPeriodCoverage',
      Prisma.sql`${INSERT_COVERAGE}
      SELECT c.subject_id, c.kind, c.source, c.first_start, c.last_start, ${LAST_END} FROM (${spanSql(kind, Prisma.sql`true`)}) c`,
    );
  }
  await run(db, 'rebuildOutageCoverage', Prisma.sql`${INSERT_COVERAGE} ${OUTAGES_SQL(Prisma.sql`true`)}`);
}

interface SpanRow {
  readonly subject_id: number;
  readonly kind: PeriodKind;
  readonly source: string;
  readonly first_start: Date;
  readonly last_start: Date;
}

/** The subjects (zones for prices, else borders) and window [from, to) of period starts a load rewrote, and the kinds it wrote. */
export interface CoverageWindow {
  readonly kinds: readonly ['prices'] | readonly HourKind[];
  readonly subjectIds: readonly number[];
  readonly from: Date;
  readonly to: Date;
}

type Probe = (kind: PeriodKind, subject: number, source: string, at: Date) => Promise<Date | null>;

/**
 * The new first and last period start of one (kind, subject, source) after its periods starting in
 * [from, to) were rewritten: the stored ones outside the window stand, the window's own come from
 * `inside`; a bound that lay in the window and has nothing left there is found by a probe beyond it.
 */
async function nextSpan(
  old: SpanRow | undefined,
  inside: SpanRow | undefined,
  w: CoverageWindow,
  probes: { after: Probe; before: Probe },
) {
  const [from, to] = [w.from.getTime(), w.to.getTime()];
  const first =
    old && old.first_start.getTime() < from
      ? old.first_start
      : inside
        ? inside.first_start
        : old && old.first_start.getTime() >= to
          ? old.first_start
          : old && old.last_start.getTime() >= to
            ? await probes.after(old.kind, old.subject_id, old.source, w.to)
            : null;
  const last =
    old && old.last_start.getTime() >= to
      ? old.last_start
      : inside
        ? inside.last_start
        : old && old.last_start.getTime() < from
          ? old.last_start
          : old && old.first_start.getTime() < from
            ? await probes.before(old.kind, old.subject_id, old.source, w.from)
            : null;
  return first && last ? { first, last } : null;
}

function probe(direction: 'after' | 'before'): (db: Executor) => Probe {
  return (db) => async (kind, subject, source, at) => {
    const f = FACTS[kind];
    const [bound, order] = direction === 'after' ? ['>=', 'ASC'] : ['<', 'DESC'];
    const rows = await run<{ ts: Date }>(
      db,
      'probeCoverageEdge',
      Prisma.sql`
      SELECT ts FROM ${Prisma.raw(f.table)} WHERE ${Prisma.raw(f.subject)} = ${subject} AND ts ${Prisma.raw(bound)} ${at.toISOString()}::timestamptz AND ${Prisma.raw(f.present)}
         AND coalesce(${Prisma.raw(f.source)}::text, '') = ${source} ORDER BY ts ${Prisma.raw(order)} LIMIT 1`,
    );
    return rows[0] ? new Date(rows[0].ts) : null;
  };
}

const keyOf = (r: { kind: string; subject_id: number; source: string }) =>
  `${r.kind}|${Number(r.subject_id)}|${r.source}`;

/**
 * Brings the rollup of the written subjects and kinds in step with the facts after a load that
 * rewrote their periods starting in [from, to), inside the loader's transaction. Reads the window's
 * facts and the subjects' rollup rows; independent of the history stored outside the window.
 */
export async function refreshCoverage(db: Executor, w: CoverageWindow): Promise<void> {
  if (w.kinds.length === 0 || w.subjectIds.length === 0) return;
  const ids = [...new Set(w.subjectIds.map(Number))];
  await lockSubjects(db, w.kinds[0] === 'prices' ? 'zones' : 'borders', ids);
  const old = await run<SpanRow>(
    db,
    'readStoredSpans',
    Prisma.sql`
    SELECT subject_id, kind::text AS kind, source, first_start, last_start FROM coverage WHERE kind::text = ANY(${[...w.kinds]}::text[]) AND subject_id = ANY(${ids}::int2[])`,
  );
  const inside: SpanRow[] = [];
  for (const kind of w.kinds) {
    const where = Prisma.sql`${Prisma.raw(FACTS[kind].subject)} = ANY(${ids}::int2[]) AND ts >= ${w.from.toISOString()}::timestamptz AND ts < ${w.to.toISOString()}::timestamptz`;
    inside.push(...(await run<SpanRow>(db, 'readWindowSpans', spanSql(kind, where))));
  }
  const olds = new Map(old.map((r) => [keyOf(r), r]));
  const insides = new Map(inside.map((r) => [keyOf(r), r]));
  const probes = { after: probe('after')(db), before: probe('before')(db) };
  const next: { kind: string; subject: number; source: string; first: Date; last: Date }[] = [];
  for (const key of new Set([...olds.keys(), ...insides.keys()])) {
    const o = olds.get(key);
    const i = insides.get(key);
    const span = await nextSpan(o, i, w, probes);
    const r = (o ?? i)!;
    if (span) next.push({ kind: r.kind, subject: Number(r.subject_id), source: r.source, ...span });
  }
  await run(
    db,
    'deleteWindowCoverage',
    Prisma.sql`DELETE FROM coverage WHERE kind::text = ANY(${[...w.kinds]}::text[]) AND subject_id = ANY(${ids}::int2[])`,
  );
  if (next.length === 0) return;
  await run(
    db,
    'insertWindowCoverage',
    Prisma.sql`${INSERT_COVERAGE}
     SELECT c.subject_id, c.kind, c.source, c.first_start, c.last_start, ${LAST_END}
     FROM (SELECT u.subject_id, u.kind::"CoverageKind" AS kind, u.source, u.first_start, u.last_start
           FROM unnest(${next.map((n) => n.subject)}::int2[], ${next.map((n) => n.kind)}::text[], ${next.map((n) => n.source)}::text[],
                 ${next.map((n) => n.first.toISOString())}::timestamptz[],
                 ${next.map((n) => n.last.toISOString())}::timestamptz[]) AS u(subject_id, kind, source, first_start, last_start)) c`,
  );
}
