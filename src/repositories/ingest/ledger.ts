/**
 * Statements of the ENTSO-E ingestion job that the shared loaders (load.ts) do not cover: the
 * bookkeeping of request windows (`ingestion_window`, which makes the job resumable; runs are
 * runs.ts) and the replacement of outages by mRID. Set-based statements only.
 */
import { refreshOutageCoverage } from '../catalogue/coverage-rollup.js';
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, run } from '../../db/executor.js';

/** Status of a run or window (`IngestionStatus`). */
export type IngestionStatus = 'running' | 'done' | 'failed';

/** A request window as the ledger stores it: item, area key (zone code or `A->B`), [start, end) UTC. */
export interface LedgerWindow {
  readonly item: string;
  readonly areaKey: string;
  readonly start: Date;
  readonly end: Date;
}

/** A window an earlier run finished, with the instant it finished. */
export interface FinishedWindow extends LedgerWindow {
  readonly finishedAt: Date;
}

/** Whether the database has the ledger (a database never migrated has not). */
export async function ledgerExists(db: Executor): Promise<boolean> {
  const rows = await run<{ t: string | null }>(
    db,
    'ledgerExists',
    Prisma.sql`SELECT to_regclass('ingestion_window')::text AS t`,
  );
  return Boolean(rows[0]?.t);
}

/**
 * Done windows of the given items and areas that overlap [from, to).
 */
export async function readFinishedWindows(
  db: Executor,
  items: readonly string[],
  areaKeys: readonly string[],
  range: { from: Date; to: Date },
): Promise<FinishedWindow[]> {
  const rows = await run<{ item: string; area_key: string; window_start: Date; window_end: Date; finished_at: Date }>(
    db,
    'readFinishedWindows',
    Prisma.sql`
    SELECT item, area_key, window_start, window_end, finished_at FROM ingestion_window
     WHERE status = 'done' AND finished_at IS NOT NULL AND item = ANY(${[...items]}::text[]) AND area_key = ANY(${[...areaKeys]}::text[])
       AND window_end > ${range.from.toISOString()}::timestamptz AND window_start < ${range.to.toISOString()}::timestamptz`,
  );
  return rows.map((r) => ({
    item: r.item,
    areaKey: r.area_key,
    start: new Date(r.window_start),
    end: new Date(r.window_end),
    finishedAt: new Date(r.finished_at),
  }));
}

/**
 * Records a window's outcome (insert, or update of the same item/area/bounds). Call it with the
 * window's data in one transaction for `done`; alone for `failed`.
 */
export async function recordWindow(
  db: Executor,
  runId: number,
  w: LedgerWindow,
  outcome: { status: Exclude<IngestionStatus, 'running'>; rows: number; error: string | null; at: Date },
): Promise<void> {
  await run(
    db,
    'recordWindow',
    Prisma.sql`INSERT INTO ingestion_window (run_id, item, area_key, window_start, window_end, status, rows, finished_at, error)
     VALUES (${runId}, ${w.item}, ${w.areaKey}, ${w.start.toISOString()}::timestamptz, ${w.end.toISOString()}::timestamptz, ${outcome.status}::"IngestionStatus", ${outcome.rows}, ${outcome.at.toISOString()}::timestamptz, ${outcome.error})
     ON CONFLICT (item, area_key, window_start, window_end) DO UPDATE SET run_id = excluded.run_id,
       status = excluded.status, rows = excluded.rows, finished_at = excluded.finished_at, error = excluded.error`,
  );
}

/**
 * Deletes the stored outages of a border that carry one of `mrids` (earlier revisions of outages
 * about to be reloaded, or cancelled ones), in one statement, and refreshes its outage `coverage`.
 * @returns the intervals removed, whose border-hours need reclassifying.
 */
export async function deleteOutagesByMrid(
  db: Executor,
  borderId: number,
  mrids: readonly string[],
): Promise<{ startsAt: Date; endsAt: Date }[]> {
  if (mrids.length === 0) return [];
  const rows = await run<{ starts_at: Date; ends_at: Date }>(
    db,
    'deleteOutagesByMrid',
    Prisma.sql`
    DELETE FROM border_outage WHERE border_id = ${borderId} AND mrid = ANY(${[...mrids]}::text[]) RETURNING starts_at, ends_at`,
  );
  if (rows.length > 0) await refreshOutageCoverage(db, [borderId]);
  return rows.map((r) => ({ startsAt: new Date(r.starts_at), endsAt: new Date(r.ends_at) }));
}

/**
 * First and last stored hour (UTC starts) of a border within [from, to), or null when it has none:
 * bounds the reclassification after an outage load to hours that exist.
 */
export async function borderHourSpan(
  db: Executor,
  borderId: number,
  from: Date,
  to: Date,
): Promise<{ first: Date; last: Date } | null> {
  const rows = await run<{ first: Date | null; last: Date | null }>(
    db,
    'borderHourSpan',
    Prisma.sql`
    SELECT min(ts) AS first, max(ts) AS last FROM border_hour WHERE border_id = ${borderId} AND ts >= ${from.toISOString()}::timestamptz AND ts < ${to.toISOString()}::timestamptz`,
  );
  const r = rows[0];
  return r?.first && r.last ? { first: new Date(r.first), last: new Date(r.last) } : null;
}
