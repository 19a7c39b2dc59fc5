/**
 * Liveness of ingestion runs. A run holds a session-level PostgreSQL advisory lock keyed by its id
 * (and the schema) from the transaction that inserts its `ingestion_run` row until it finishes.
 * The server drops the lock when the session ends, so a process killed mid-run (out of memory,
 * SIGKILL, a crashed host once TCP notices) leaves a `running` row whose lock nobody holds: the
 * next run finds such rows in `pg_locks` and closes them as abandoned. No clock or heartbeat is
 * involved, and a live run, however slow, is never taken for a dead one.
 *
 * On PostgreSQL the lock lives on a dedicated connection (not taken from the pool, so the pool
 * keeps its size; to the server itself past a pooler: see `Database.direct`); on PGlite, whose single session ends with the process, on the engine itself
 * (in this process, or over the wire where all connections share that session: so the lock is
 * released explicitly, not by closing the connection). Since the engine's session outlives a run's
 * process killed while the server runs, on PGlite a run is also abandoned when the process id it
 * recorded is gone (the engine's clients all run on its host: its socket is local).
 */
import pg from 'pg';
import { type Database, directOf } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { connectionSql, type Executor, inTransaction, run, type Sql } from '../../db/executor.js';
import type { IngestionStatus } from './ledger.js';

/** The lock's first key: a non-negative hash of the schema, so schemas sharing a database do not collide. */
const LOCK_CLASS = Prisma.sql`(hashtext('ingestion_run:' || current_schema()) & 2147483647)`;

/** The error recorded on a run closed as abandoned. */
export const ABANDONED_MESSAGE =
  'abandoned: its process ended without finishing the run (killed or crashed); its unfinished windows are fetched again';

/** A started run: its id, holding its liveness lock until {@link RunLease.release}. */
export interface RunLease {
  readonly id: number;
  /** Drops the lock (and closes its connection). Safe to call more than once. */
  release(): Promise<void>;
}

async function insertLocked(sql: Sql, args: unknown, now: Date): Promise<number> {
  const rows = await run<{ id: number }>(
    sql,
    'insertIngestionRun',
    Prisma.sql`
    INSERT INTO ingestion_run (started_at, status, args, pid)
    VALUES (${now.toISOString()}::timestamptz, 'running', ${JSON.stringify(args ?? {})}::jsonb, ${process.pid}) RETURNING id`,
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('ingestion_run insert returned no id');
  await run(sql, 'lockIngestionRun', Prisma.sql`SELECT pg_advisory_lock(${LOCK_CLASS}, ${id})`);
  return id;
}

const unlockRun = (id: number) => Prisma.sql`SELECT pg_advisory_unlock(${LOCK_CLASS}, ${id})`;

async function startOnPglite(db: Database, args: unknown, now: Date): Promise<RunLease> {
  const engine = db.pglite;
  if (!engine) throw new Error('PGlite database without its engine');
  const id = await inTransaction(engine, (sql) => insertLocked(sql, args, now));
  return lease(id, async () => {
    if (!engine.closed) await run(connectionSql(engine), 'unlockIngestionRun', unlockRun(id));
  });
}

/** A run's lease whose `release` runs `unlock` once, however often it is called. */
function lease(id: number, unlock: () => Promise<void>): RunLease {
  let held = true;
  return {
    id,
    async release() {
      if (!held) return;
      held = false;
      await unlock();
    },
  };
}

async function startOnPostgres(db: Database, args: unknown, now: Date): Promise<RunLease> {
  const pool = directOf(db).pool;
  if (!pool) throw new Error('PostgreSQL database without its pool');
  const client = new pg.Client(pool.options);
  client.on('error', () => undefined);
  await client.connect();
  try {
    const id = await inTransaction(client, (sql) => insertLocked(sql, args, now));
    return lease(id, async () => {
      await run(connectionSql(client), 'unlockIngestionRun', unlockRun(id)).catch(() => undefined);
      await client.end().catch(() => undefined);
    });
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/**
 * Records a new run as `running` and takes its liveness lock in the same transaction, so no other
 * run can see the row without the lock. `args` is stored as JSON (never pass secrets).
 */
export function startRun(db: Database, args: unknown, now: Date): Promise<RunLease> {
  return db.pglite ? startOnPglite(db, args, now) : startOnPostgres(db, args, now);
}

/** Closes a run with its final status and, when failed, a one-line error. */
export async function finishRun(
  db: Executor,
  runId: number,
  status: Exclude<IngestionStatus, 'running'>,
  error: string | null,
  now: Date,
): Promise<void> {
  await run(
    db,
    'finishRun',
    Prisma.sql`
    UPDATE ingestion_run SET status = ${status}::"IngestionStatus", error = ${error}, finished_at = ${now.toISOString()}::timestamptz WHERE id = ${runId}`,
  );
}

/** Whether a process of this host with that id runs (EPERM: it runs, as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** On PGlite: the `running` runs (other than `selfId`) whose recorded process is gone. */
async function deadProcessRuns(db: Database, selfId: number): Promise<number[]> {
  if (db.kind !== 'pglite') return [];
  const rows = await run<{ id: number; pid: number }>(
    db,
    'deadProcessRuns',
    Prisma.sql`
    SELECT id, pid FROM ingestion_run WHERE status = 'running' AND id <> ${selfId} AND pid IS NOT NULL`,
  );
  return rows.filter((r) => r.pid !== process.pid && !processAlive(r.pid)).map((r) => r.id);
}

/**
 * Closes as `failed` with {@link ABANDONED_MESSAGE} every `running` run other than `selfId` whose
 * liveness lock no session holds (its process is gone) or, on PGlite, whose recorded process no
 * longer runs. `finished_at` is the moment it was found.
 * @returns the ids closed.
 */
export async function closeAbandonedRuns(db: Database, selfId: number, now: Date): Promise<number[]> {
  const dead = await deadProcessRuns(db, selfId);
  const rows = await run<{ id: number }>(
    db,
    'closeAbandonedRuns',
    Prisma.sql`
    UPDATE ingestion_run r SET status = 'failed', error = ${ABANDONED_MESSAGE}, finished_at = ${now.toISOString()}::timestamptz
     WHERE r.status = 'running' AND r.id <> ${selfId} AND (r.id = ANY(${dead}::int[]) OR NOT EXISTS (
       SELECT 1 FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND l.classid = ${LOCK_CLASS}::oid AND l.objid = r.id::oid))
     RETURNING r.id`,
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
