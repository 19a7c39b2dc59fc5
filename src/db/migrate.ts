import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { PROJECT_ROOT } from '../project-root.js';
import { inTransaction, type Sql } from './executor.js';
import { type Database, directOf } from './client.js';

/**
 * Applies prisma/migrations without Prisma's native schema engine, keeping Prisma's own bookkeeping
 * (`_prisma_migrations`, advisory lock 72707369) so `prisma migrate deploy/status` stay compatible.
 */

const MIGRATIONS_DIR = join(PROJECT_ROOT, 'prisma', 'migrations');

/** The key Prisma's schema engine locks on PostgreSQL while migrating. */
const LOCK_KEY = 72707369;

/** Prisma's DDL for its history table on PostgreSQL, verbatim from the schema engine. */
const CREATE_TABLE = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

/**
 * SQLSTATEs of a migration stopped from outside before it committed, nothing wrong with its script:
 * query_canceled (cancel request, statement_timeout), lock_not_available (lock_timeout),
 * deadlock_detected, serialization_failure, admin_shutdown, crash_shutdown, cannot_connect_now.
 */
const STOPPED_CODES = new Set(['57014', '55P03', '40P01', '40001', '57P01', '57P02', '57P03']);

/** The messages of those errors, for history rows recorded as failed by earlier versions (logs hold the message only). */
const STOPPED_MESSAGE =
  /^(canceling statement due to (user request|statement timeout|lock timeout)|could not obtain lock|deadlock detected|could not serialize access|terminating connection due to administrator command)/;

/** Whether `error` stopped a migration from outside (cancelled, timed out waiting, shut down): it rolled back and can simply run again. */
function stoppedFromOutside(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return STOPPED_CODES.has(code);
  return STOPPED_MESSAGE.test(error instanceof Error ? error.message : String(error));
}

/** Thrown when migrating is refused or a migration fails; the message names the migration. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** Receives one line per event (migration applied, history warnings). */
  log?: (msg: string) => void;
  /** The migrations folder; defaults to prisma/migrations of this project, whatever the cwd. */
  dir?: string;
}

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

interface HistoryRow {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
}

/** What migrations run on: one connection (PostgreSQL) or the embedded engine (PGlite). */
interface Session {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction(fn: (tx: Sql) => Promise<void>): Promise<void>;
}

/**
 * Applies the migrations of the migrations folder that the database has not applied yet, in name
 * order, each in its own transaction, under Prisma's advisory lock. On PostgreSQL the schema
 * `db.schema` is created first when missing.
 * @returns the names of the migrations applied by this call (empty when up to date).
 * @throws MigrationError when a migration failed earlier and was not resolved, when an applied
 *   migration's file changed since, or when a migration fails now (it is then recorded as failed).
 */
export async function migrate(db: Database, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const log = opts.log ?? (() => {});
  const files = readMigrations(opts.dir ?? MIGRATIONS_DIR);
  return withLockedSession(db, async (session) => {
    if (db.kind === 'postgres') await session.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(db.schema)}`);
    if (!(await hasHistoryTable(session))) await session.query(CREATE_TABLE);
    const history = await session.query<HistoryRow>(
      'SELECT id, migration_name, checksum, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY started_at',
    );
    const pending = checkHistory(files, await recoverInterrupted(session, history, log), log);
    for (const migration of pending) await applyOne(session, migration, log);
    return { applied: pending.map((m) => m.name) };
  });
}

/**
 * Names of the migrations in the migrations folder that the database has not applied (failed ones
 * included), in order; empty when the schema is up to date.
 */
export async function pendingMigrations(
  db: Pick<Database, 'rawQuery'>,
  dir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const names = migrationNames(dir);
  const [table] = await db.rawQuery<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!table?.t) return names;
  const rows = await db.rawQuery<{ migration_name: string }>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  const applied = new Set(rows.map((r) => r.migration_name));
  return names.filter((name) => !applied.has(name));
}

/** The migration folders of `dir`, sorted by name as Prisma sorts them. */
function migrationNames(dir: string): string[] {
  if (!existsSync(dir)) throw new MigrationError(`migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The migrations of `dir` with their script and checksum. */
function readMigrations(dir: string): MigrationFile[] {
  return migrationNames(dir).map((name) => {
    const path = join(dir, name, 'migration.sql');
    if (!existsSync(path)) throw new MigrationError(`migration ${name} has no migration.sql`);
    const bytes = readFileSync(path);
    return { name, sql: bytes.toString('utf8'), checksum: sha256(bytes) };
  });
}

/**
 * Refuses a history holding an unresolved failed migration or an applied migration whose file
 * changed; returns the migrations still to apply.
 */
function checkHistory(files: MigrationFile[], history: HistoryRow[], log: (msg: string) => void): MigrationFile[] {
  const live = history.filter((row) => row.rolled_back_at === null);
  const failed = live.find((row) => row.finished_at === null);
  if (failed) {
    throw new MigrationError(
      `migration ${failed.migration_name} failed earlier (see _prisma_migrations.logs); its transaction was ` +
        `rolled back. Fix it, then mark it rolled back: UPDATE _prisma_migrations SET rolled_back_at = now() ` +
        `WHERE migration_name = '${failed.migration_name}' AND finished_at IS NULL`,
    );
  }
  const applied = new Map(live.map((row) => [row.migration_name, row]));
  for (const file of files) {
    const row = applied.get(file.name);
    if (row && !checksumMatches(file, row.checksum)) {
      throw new MigrationError(
        `migration ${file.name} was modified after it was applied (checksum ${file.checksum} differs from ` +
          `${row.checksum} in _prisma_migrations); restore the file and put the change in a new migration`,
      );
    }
  }
  const known = new Set(files.map((f) => f.name));
  for (const name of applied.keys()) {
    if (!known.has(name)) log(`migration ${name} is applied in the database but missing from the migrations folder`);
  }
  return files.filter((file) => !applied.has(file.name));
}

/**
 * Marks rolled back the migrations an earlier run recorded as started without a finish or an error
 * (earlier versions recorded the start before the migration's transaction: a process killed while
 * applying one left that row, its effects rolled back with the transaction), and those earlier
 * versions recorded as failed when they were only cancelled or timed out waiting for a lock (see
 * {@link stoppedFromOutside}: rolled back too); returns the history without them.
 */
async function recoverInterrupted(
  session: Session,
  history: HistoryRow[],
  log: (msg: string) => void,
): Promise<HistoryRow[]> {
  const interrupted = history.filter(
    (row) =>
      row.rolled_back_at === null && row.finished_at === null && (row.logs === null || STOPPED_MESSAGE.test(row.logs)),
  );
  for (const row of interrupted) {
    await session.query(
      `UPDATE _prisma_migrations SET rolled_back_at = now(), logs = 'interrupted before it committed; rolled back and applied again' WHERE id = $1`,
      [row.id],
    );
    log(
      `migration ${row.migration_name} was interrupted before it committed (its transaction rolled back); applying it again`,
    );
  }
  return history.filter((row) => !interrupted.includes(row));
}

/**
 * Records the start, runs the script and records the end in one transaction, so a run killed
 * meanwhile leaves neither effects nor record. On failure the script rolls back and a started row
 * is recorded, with the error in `logs`, as Prisma leaves it; unless the migration was stopped from
 * outside (cancelled, statement or lock timeout, deadlock, shutdown: {@link stoppedFromOutside}),
 * which is recorded rolled back already, so that running again applies it, as after a kill.
 */
async function applyOne(session: Session, migration: MigrationFile, log: (msg: string) => void): Promise<void> {
  const id = randomUUID();
  const started = Date.now();
  try {
    await session.transaction(async (tx) => {
      await tx.exec('SET LOCAL statement_timeout = 0');
      await tx.query(
        'INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, now(), $3)',
        [id, migration.checksum, migration.name],
      );
      await tx.exec(migration.sql);
      await tx.query(
        'UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1',
        [id],
      );
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const stopped = stoppedFromOutside(error);
    await session
      .query(
        'INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name, logs, rolled_back_at) VALUES ($1, $2, now(), $3, $4, $5)',
        [
          id,
          migration.checksum,
          migration.name,
          stopped ? `${message} (stopped before it committed; rolled back: run again to apply it)` : message,
          stopped ? new Date() : null,
        ],
      )
      .catch(() => undefined);
    const hint = stopped ? ' (it did not commit: run the migration again)' : '';
    throw new MigrationError(`migration ${migration.name} failed: ${message}${hint}`, { cause: error });
  }
  log(`applied migration ${migration.name} (${Date.now() - started} ms)`);
}

async function hasHistoryTable(session: Session): Promise<boolean> {
  const [row] = await session.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  return Boolean(row?.t);
}

/** Runs `fn` on one session (of the direct connection, past a pooler) holding Prisma's advisory lock, then unlocks and releases it. */
async function withLockedSession<T>(pooledOrDirect: Database, fn: (session: Session) => Promise<T>): Promise<T> {
  const db = directOf(pooledOrDirect);
  if (db.pglite) return serialised(db.pglite, () => locked(pgliteSession(db.pglite!), fn));
  if (!db.pool) throw new MigrationError(`database of kind ${db.kind} has neither pglite nor pool`);
  const client = await db.pool.connect();
  const dropped = () => undefined; // a dropped connection fails the running query; the event must not crash the process
  client.on('error', dropped);
  try {
    const result = await locked(clientSession(client, db.kind), fn);
    client.off('error', dropped);
    client.release();
    return result;
  } catch (error) {
    client.release(true); // closing the connection frees the lock whatever state the session is in
    throw error;
  }
}

async function locked<T>(session: Session, fn: (session: Session) => Promise<T>): Promise<T> {
  try {
    await session.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      `could not take the migration lock ${LOCK_KEY} (is another migration running?): ${reason}`,
    );
  }
  const unlock = () => session.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
  let result: T;
  try {
    result = await fn(session);
  } catch (error) {
    await unlock().catch(() => undefined);
    throw error;
  }
  await unlock();
  return result;
}

/**
 * PGlite has a single session, in which the advisory lock is re-entrant: concurrent calls on one
 * instance are queued here instead.
 */
const queues = new WeakMap<PGlite, Promise<unknown>>();
function serialised<T>(pglite: PGlite, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(pglite) ?? Promise.resolve()).then(fn, fn);
  queues.set(
    pglite,
    run.catch(() => undefined),
  );
  return run;
}

function pgliteSession(pglite: PGlite): Session {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await pglite.query<T>(sql, params)).rows;
    },
    transaction: (fn) => inTransaction(pglite, fn),
  };
}

function clientSession(client: pg.PoolClient, kind: Database['kind']): Session {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await client.query(sql, params)).rows as T[];
    },
    transaction: (fn) => inTransaction(client, fn, kind),
  };
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** As Prisma: a checkout that only changed line endings (LF/CRLF) still matches. */
function checksumMatches(file: MigrationFile, checksum: string): boolean {
  if (file.checksum === checksum.toLowerCase()) return true;
  const lf = file.sql.replace(/\r\n/g, '\n');
  return [lf, lf.replace(/\n/g, '\r\n')].some((variant) => sha256(variant) === checksum.toLowerCase());
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
