/**
 * A small SQL executor shared by the repositories: one connection, optionally inside a transaction,
 * with a binary COPY path on both access paths (PGlite in this process: a blob; a pool, PostgreSQL
 * or the embedded engine's wire server: the copy-in protocol).
 */
import type pg from 'pg';
import { type Database, primaryOf, takeRows } from '../../db/client.js';
import { copyIn } from './pg-copy.js';

/** One connection (a transaction when obtained from {@link inTransaction}). */
export interface Sql {
  readonly kind: Database['kind'];
  /** Runs one parameterised statement and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs SQL text holding one or more statements without parameters (migration scripts). */
  exec(script: string): Promise<void>;
  /** Runs `COPY table (cols) FROM STDIN (FORMAT binary)` with the given payload. */
  copyIn(table: string, columns: readonly string[], payload: Uint8Array<ArrayBuffer>): Promise<void>;
}

/** Either a database (each call may use another pooled connection) or a connection in a transaction. */
export type Executor = Database | Sql;

function isSql(x: Executor): x is Sql {
  return typeof (x as Sql).copyIn === 'function';
}

function copySql(table: string, columns: readonly string[], from: string): string {
  return `COPY ${table} (${columns.join(', ')}) FROM ${from} WITH (FORMAT binary)`;
}

function pgliteSql(pgl: Pick<NonNullable<Database['pglite']>, 'query' | 'exec'>): Sql {
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pgl.query<T>(sql, params)).rows;
    },
    async exec(script) {
      await pgl.exec(script);
    },
    async copyIn(table, columns, payload) {
      await pgl.query(copySql(table, columns, `'/dev/blob'`), [], { blob: new Blob([payload]) });
    },
  };
}

function clientSql(client: pg.PoolClient, kind: Database['kind']): Sql {
  return {
    kind,
    async query<T>(sql: string, params: unknown[] = []) {
      return takeRows<T>(await client.query(sql, params));
    },
    async exec(script) {
      await client.query(script);
    },
    copyIn: (table, columns, payload) => copyIn(client, copySql(table, columns, 'STDIN'), payload),
  };
}

/**
 * Runs `fn` in one transaction on one connection (of the primary, past read replicas) and commits,
 * or rolls back when it throws. Given an {@link Sql} already in a transaction, runs `fn` on it
 * directly (no nesting).
 */
export async function inTransaction<T>(executor: Executor, fn: (sql: Sql) => Promise<T>): Promise<T> {
  if (isSql(executor)) return fn(executor);
  const db = primaryOf(executor);
  if (db.pglite) return transactionOn(db.pglite, fn);
  if (!db.pool) throw new Error('database without its engine or pool');
  const client = await db.pool.connect();
  try {
    return await transactionOn(client, fn, db.kind);
  } finally {
    client.release();
  }
}

/**
 * The one transaction helper: runs `fn` in one transaction on a given connection (a checked-out
 * PostgreSQL client, or the embedded engine) and commits, or rolls back when it throws.
 */
export async function transactionOn<T>(
  connection: pg.PoolClient | NonNullable<Database['pglite']>,
  fn: (sql: Sql) => Promise<T>,
  kind: Database['kind'] = 'postgres',
): Promise<T> {
  if ('transaction' in connection) return connection.transaction((tx) => fn(pgliteSql(tx)));
  await connection.query('BEGIN');
  try {
    const result = await fn(clientSql(connection, kind));
    await connection.query('COMMIT');
    return result;
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Runs one statement on an executor (outside any transaction when given a {@link Database}). */
export async function query<T = Record<string, unknown>>(db: Executor, sql: string, params: unknown[] = []): Promise<T[]> {
  return isSql(db) ? db.query<T>(sql, params) : db.rawQuery<T>(sql, params);
}

/** Runs one of the service's repeated reads built with tagged SQL (see {@link preparedQuery}). */
export async function read<T = Record<string, unknown>>(db: Executor, statement: { text: string; values: unknown[] }): Promise<T[]> {
  return preparedQuery<T>(db, statement.text, statement.values);
}

/**
 * Runs one of the service's repeated reads ({@link Database.preparedQuery}): prepared once per
 * PostgreSQL connection. Inside a transaction it is a plain statement.
 */
export async function preparedQuery<T = Record<string, unknown>>(db: Executor, sql: string, params: unknown[] = []): Promise<T[]> {
  return isSql(db) ? db.query<T>(sql, params) : db.preparedQuery<T>(sql, params);
}
