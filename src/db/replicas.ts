/**
 * Reads from read replicas (DATABASE_READ_URL): a database whose queries go to the replicas in
 * turn, one per call (Prisma's included), while writes, API keys, transactions, LISTEN, the ingest
 * leader and ingestion reach the primary (see `primaryOf` and `directOf`). A replica may lag behind
 * the primary: a read right after a data event may still see the data from before it.
 */
import type { Database } from './client.js';

/** A database reading from `replicas` in turn, with `primary` for the rest (see the module comment). */
export function readingFrom(primary: Database, replicas: readonly Database[]): Database {
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
    async close() {
      await Promise.all([primary.close(), ...replicas.map((r) => r.close())]);
    },
  };
}
