/**
 * Reads from read replicas (DATABASE_READ_URL): a database whose queries go to the replicas in
 * turn, one per call, while writes, API keys, transactions, LISTEN, the ingest
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
/** Lag past which a replica counts as `behind` (see {@link ReplicaLag}), s. */
export const REPLICA_MAX_LAG_S = 5;

/**
 * How far one replica lags behind the primary: `ok`, `behind` (more than {@link REPLICA_MAX_LAG_S}
 * behind) or `unreachable` (its health-check query failed; no figures then).
 */
export interface ReplicaLag {
  readonly status: 'ok' | 'behind' | 'unreachable';
  /** WAL the primary had written that the replica had not replayed yet, bytes (0 on a server not in recovery). */
  readonly lagBytes?: number;
  /** 0 when `lagBytes` is 0, else the age of the last transaction the replica replayed, s. */
  readonly lagSeconds?: number;
}

/** Options of {@link readingFrom}. */
export interface ReadingOptions {
  /** Longest wait of `caughtUp`, ms; default {@link REPLICA_WAIT_MAX_MS}. */
  readonly maxWaitMs?: number;
}

/** Whether `replica` has replayed the WAL up to `lsn` (a server not in recovery always has). */
async function replayed(replica: Database, lsn: string): Promise<boolean> {
  const [row] = await replica.rawQuery<{ ok: boolean | null }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [
    lsn,
  ]);
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

/** How far `replica` lags behind the primary's WAL position `lsn` (read before, so a lag is real). */
async function lagOf(replica: Database, lsn: string): Promise<ReplicaLag> {
  const [row] = await replica.probeQuery<{ bytes: number | null; age: number | null }>(
    `SELECT greatest(pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()), 0)::float8 AS bytes,
       greatest(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)::float8 AS age`,
    [lsn],
  );
  const lagBytes = row?.bytes ?? 0;
  const lagSeconds = lagBytes > 0 ? (row?.age ?? 0) : 0;
  return { status: lagSeconds > REPLICA_MAX_LAG_S ? 'behind' : 'ok', lagBytes, lagSeconds };
}

/** The lag of each replica, in order, on the health-check connections (see {@link ReplicaLag}). */
async function replicaLags(primary: Database, replicas: readonly Database[]): Promise<ReplicaLag[]> {
  const [row] = await primary.probeQuery<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  if (!row) return [];
  return Promise.all(replicas.map((r) => lagOf(r, row.lsn).catch((): ReplicaLag => ({ status: 'unreachable' }))));
}

/** A database reading from `replicas` in turn, with `primary` for the rest (see the module comment). */
export function readingFrom(
  primary: Database,
  replicas: readonly Database[],
  { maxWaitMs = REPLICA_WAIT_MAX_MS }: ReadingOptions = {},
): Database {
  let turn = 0;
  const next = (): Database => replicas[turn++ % replicas.length]!;
  const first = replicas[0]!;
  return {
    kind: primary.kind,
    schema: primary.schema,
    ...(first.pool ? { pool: first.pool } : {}),
    execScript: (sql) => primary.execScript(sql),
    rawQuery: <T>(sql: string, params?: unknown[]) => next().rawQuery<T>(sql, params),
    probeQuery: <T>(sql: string, params?: unknown[]) => next().probeQuery<T>(sql, params),
    preparedQuery: <T>(sql: string, params?: unknown[]) => next().preparedQuery<T>(sql, params),
    primary,
    caughtUp: () => waitForReplicas(primary, replicas, maxWaitMs),
    replicaLag: () => replicaLags(primary, replicas),
    async close() {
      await Promise.all([primary.close(), ...replicas.map((r) => r.close())]);
    },
  };
}
