/**
 * The one way the repositories run SQL. A statement is a `Prisma.sql` tagged template (values are
 * always parameters, fragments compose), run by {@link run} or, for the service's repeated reads, by
 * {@link read} (prepared once per connection), under a name: its text is sent as
 * `/* name *\/ SELECT ...`, so server logs and `pg_stat_statements` show which statement it is.
 * Statements run on the driver (node-postgres or PGlite), not through Prisma's `$queryRaw`: the same
 * code serves a pool, a connection in a transaction and the embedded engine, with prepared
 * statements and binary COPY. {@link inTransaction} is the one transaction helper.
 */
import type pg from 'pg';
import { type Database, primaryOf, takeRows } from './client.js';
import type { Prisma } from '../generated/prisma/client.js';
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
  return `${label('copyIn')}COPY ${table} (${columns.join(', ')}) FROM ${from} WITH (FORMAT binary)`;
}

const NAME = /^[a-z][A-Za-z0-9]*$/;

/** The comment naming a statement, `/* name *\/ `; the name is camelCase (nothing that could end the comment). */
function label(name: string): string {
  if (!NAME.test(name)) throw new Error(`SQL statement name must be camelCase: ${JSON.stringify(name)}`);
  return `/* ${name} */ `;
}

/** The text of `statement` named `name`, as it is sent: `/* name *\/ SELECT ...`. */
export function namedText(name: string, statement: Prisma.Sql): string {
  return label(name) + statement.text.trimStart();
}

/** A connection of one's own: a checked-out or dedicated PostgreSQL client, or the embedded engine. */
export type Connection = pg.ClientBase | NonNullable<Database['pglite']>;

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

function clientSql(client: pg.ClientBase, kind: Database['kind']): Sql {
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

/** An {@link Sql} on a connection of one's own, outside any transaction (a session lock, VACUUM). */
export function connectionSql(connection: Connection, kind: Database['kind'] = 'postgres'): Sql {
  return 'transaction' in connection ? pgliteSql(connection) : clientSql(connection, kind);
}

/**
 * The one transaction helper: runs `fn` in one transaction and commits, or rolls back when it
 * throws. Given a {@link Database}, on one connection of its primary (past read replicas); given a
 * {@link Connection}, on that connection; given an {@link Sql} already in a transaction, runs `fn`
 * on it directly (no nesting).
 */
export async function inTransaction<T>(
  target: Executor | Connection,
  fn: (sql: Sql) => Promise<T>,
  kind: Database['kind'] = 'postgres',
): Promise<T> {
  if (isConnection(target)) return transactionOn(target, fn, kind);
  if (isSql(target)) return fn(target);
  const db = primaryOf(target);
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
 * Runs `fn` on one connection of `db`'s pool, outside any transaction, and releases it (statements
 * that cannot run in a transaction, with session settings of their own: VACUUM).
 */
export async function withConnection<T>(db: Database, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const pool = primaryOf(db).pool;
  if (!pool) throw new Error('a connection of its own needs a pool');
  const client = await pool.connect();
  try {
    return await fn(clientSql(client, db.kind));
  } finally {
    client.release();
  }
}

function isConnection(x: Executor | Connection): x is Connection {
  return !('rawQuery' in x) && !('copyIn' in x);
}

async function transactionOn<T>(
  connection: Connection,
  fn: (sql: Sql) => Promise<T>,
  kind: Database['kind'] = 'postgres',
): Promise<T> {
  if ('transaction' in connection) return connection.transaction((tx) => fn(pgliteSql(tx)));
  await connection.query(`${label('begin')}BEGIN`);
  try {
    const result = await fn(clientSql(connection, kind));
    await connection.query(`${label('commit')}COMMIT`);
    return result;
  } catch (error) {
    await connection.query(`${label('rollback')}ROLLBACK`).catch(() => undefined);
    throw error;
  }
}

/** Runs one statement named `name` (see the module comment) on an executor and returns its rows (outside any transaction when given a {@link Database}). */
export async function run<T = Record<string, unknown>>(
  db: Executor,
  name: string,
  statement: Prisma.Sql,
): Promise<T[]> {
  const text = namedText(name, statement);
  return isSql(db) ? db.query<T>(text, statement.values) : db.rawQuery<T>(text, statement.values);
}

/**
 * Runs one of the service's repeated reads, named `name` ({@link Database.preparedQuery}): prepared
 * once per PostgreSQL connection. Inside a transaction it is a plain statement.
 */
export async function read<T = Record<string, unknown>>(
  db: Executor,
  name: string,
  statement: Prisma.Sql,
): Promise<T[]> {
  const text = namedText(name, statement);
  return isSql(db) ? db.query<T>(text, statement.values) : db.preparedQuery<T>(text, statement.values);
}

/**
 * Runs one of the service's heavy reads (a whole-span aggregate) named `name` with settings that
 * hold for that statement alone (`set_config(…, true)`: `jit`, `work_mem`), in a read-only
 * transaction of its own on one connection of `db` (a replica's when reading from replicas). On
 * the embedded engine, which compiles nothing and whose session is shared, it is a plain
 * {@link read}. A request's deadline does not cancel it: the session's statement_timeout (the
 * same limit) ends it.
 */
export async function readWithSettings<T = Record<string, unknown>>(
  db: Database,
  name: string,
  settings: Readonly<Record<string, string>>,
  statement: Prisma.Sql,
): Promise<T[]> {
  if (db.kind !== 'postgres' || !db.pool) return read<T>(db, name, statement);
  const client = await db.pool.connect();
  try {
    await client.query(`${label('beginReadOnly')}BEGIN READ ONLY`);
    try {
      const entries = Object.entries(settings);
      if (entries.length) {
        const calls = entries.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ');
        await client.query(`${label('setLocal')}SELECT ${calls}`, entries.flat());
      }
      const rows = takeRows<T>(await client.query(namedText(name, statement), statement.values));
      await client.query(`${label('commit')}COMMIT`);
      return rows;
    } catch (error) {
      await client.query(`${label('rollback')}ROLLBACK`).catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}
