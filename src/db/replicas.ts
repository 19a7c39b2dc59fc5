/**
 * Reads from read replicas (DATABASE_READ_URL): a database whose queries go to the replicas in
 * turn, one per call (Prisma's included), while writes, API keys, transactions, LISTEN, the ingest
 * leader and ingestion reach the primary (see `primaryOf` and `directOf`). A replica may lag behind
 * the primary: before a data event drops the caches, `caughtUp` waits until every replica has
 * replayed the primary's WAL up to where it stood when the event arrived (so past its commit), at
 * most {@link REPLICA_WAIT_MAX_MS}; a replica further behind may still answer with older data.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Database } from './client.js';

/** Longest wait for the replicas to replay a data event's commit before the caches drop anyway, ms. */
export const REPLICA_WAIT_MAX_MS = 5_000;
/** Pause between two looks at a replica's replay position, ms. */
const REPLICA_POLL_MS = 20;

/** Options of {@link readingFrom}. */
export interface ReadingOptions {
  /** Longest wait of `caughtUp`, ms; default {@link REPLICA_WAIT_MAX_MS}. */
  readonly maxWaitMs?: number;
}

/** Whether `replica` has replayed the WAL up to `lsn` (a server not in recovery always has). */
async function replayed(replica: Database, lsn: string): Promise<boolean> {
  const [row] = await replica.rawQuery<{ ok: boolean | null }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
  return row?.ok !== false;
}

/** Resolves once each replica has replayed the primary's current WAL position, or after `maxWaitMs`. */
async function waitForReplicas(primary: Database, replicas: readonly Database[], maxWaitMs: number): Promise<void> {
  const [row] = await primary.rawQuery<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  if (!row) return;
  const deadline = Date.now() + maxWaitMs;
  let waiting = [...replicas];
  while (waiting.length > 0 && Date.now() < deadline) {
    const done = await Promise.all(waiting.map((r) => replayed(r, row.lsn).catch(() => true)));
    waiting = waiting.filter((_, i) => !done[i]);
    if (waiting.length > 0) await delay(REPLICA_POLL_MS);
  }
}

/** A database reading from `replicas` in turn, with `primary` for the rest (see the module comment). */
export function readingFrom(primary: Database, replicas: readonly Database[], { maxWaitMs = REPLICA_WAIT_MAX_MS }: ReadingOptions = {}): Database {
  let turn = 0;
  const next = (): Database => replicas[turn++ % replicas.length]!;
  const first = replicas[0]!;
  return {
    kind: primary.kind,
    schema: primary.schema,
    get prisma() {
      return next().prisma;
    },
    ...(first.pool ? { pool: first.pool } : {}),
    execScript: (sql) => primary.execScript(sql),
    rawQuery: <T>(sql: string, params?: unknown[]) => next().rawQuery<T>(sql, params),
    probeQuery: <T>(sql: string, params?: unknown[]) => next().probeQuery<T>(sql, params),
    preparedQuery: <T>(sql: string, params?: unknown[]) => next().preparedQuery<T>(sql, params),
    primary,
    caughtUp: () => waitForReplicas(primary, replicas, maxWaitMs),
    async close() {
      await Promise.all([primary.close(), ...replicas.map((r) => r.close())]);
    },
  };
}
