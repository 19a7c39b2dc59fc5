import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../config.js';
import { currentRequestSignal } from '../deadline.js';
import { cancellablePool } from './cancellable-pool.js';
import { acquireDirLock, DirectoryInUseError, type DirLock, type LockOwner } from './dir-lock.js';
import { checkSessionOptions, poolerClient, transactionSettings } from './pooler.js';
import { publishedUrl } from './published-url.js';
import { refuseReadOnly } from './writable.js';
import type { ReplicaLag } from './replicas.js';

/** Which engine backs the service: an embedded PGlite or a PostgreSQL server. */
export type DatabaseKind = 'pglite' | 'postgres';

/**
 * A connected database: statements on the driver (node-postgres or PGlite), for the repositories
 * (through `db/executor.ts`), migrations and health checks only.
 */
export interface Database {
  readonly kind: DatabaseKind;
  /** The schema holding the tables (search_path on PostgreSQL; always `public` on PGlite). */
  readonly schema: string;
  /** The embedded engine when it runs in this process (COPY from a blob, dumps). */
  readonly pglite?: PGlite;
  /** The connection pool: PostgreSQL's, or the embedded engine's when reached over the wire protocol. */
  readonly pool?: pg.Pool;
  /**
   * Notifications of the embedded engine served over the wire protocol by this process, whose
   * single session cannot deliver them to a LISTENing connection (see `forwardNotifications`):
   * `on(channel, cb)` calls `cb` with each payload and returns the unsubscribe.
   */
  readonly notifications?: { on(channel: string, cb: (payload: string) => void): () => void };
  /**
   * Whether the embedded engine's thread still runs, however busy (see `startEngineThread`);
   * absent where the engine's life cannot be seen apart from its answers (PostgreSQL, in-process PGlite).
   */
  readonly engineAlive?: () => boolean;
  /** Runs SQL text holding one or more statements without parameters (DDL, migrations). */
  execScript(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows (on any pooled connection). */
  rawQuery<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs one statement of a health check, never queued behind request traffic: on PostgreSQL on a
   * connection of its own (a one-connection pool beside the request pool); on PGlite on the
   * engine's single session, which runs statements one at a time (so it answers after the running
   * statement, however busy, and fails only when the engine does).
   */
  probeQuery<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs one of the service's repeated reads: on PostgreSQL a named prepared statement, parsed
   * once per connection (once per engine session on the embedded wire server), still planned for each execution's values (`plan_cache_mode` is
   * `force_custom_plan`: two days and five years get different plans). Only for SQL text drawn
   * from a fixed set (every value a parameter): each distinct text stays prepared per connection.
   */
  preparedQuery<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * The direct connection to the server (DATABASE_DIRECT_URL) when this database is reached
   * through a transaction pooler: for what needs a session of its own (LISTEN, advisory locks:
   * the leader's, migrations', ingestion runs') and for ingestion. Closed with this database.
   */
  readonly direct?: Database;
  /**
   * The primary when this database reads from replicas (DATABASE_READ_URL): for writes, API keys and
   * transactions; its `direct` serves sessions. Closed with this database.
   */
  readonly primary?: Database;
  /**
   * Resolves once every replica has replayed what the primary had written when called (at most
   * `REPLICA_WAIT_MAX_MS`, see `readingFrom`); present only when reading from replicas.
   */
  caughtUp?(): Promise<void>;
  /** How far each replica lags behind the primary, in DATABASE_READ_URL's order; present only when reading from replicas. */
  replicaLag?(): Promise<ReplicaLag[]>;
  close(): Promise<void>;
}

/** The database for writes, API keys and transactions: the primary when `db` reads from replicas, else `db`. */
export const primaryOf = (db: Database): Database => db.primary ?? db;

/**
 * The database for sessions, migrations and ingestion: the direct connection to the primary when
 * `db` goes through a pooler, else the primary when `db` reads from replicas, else `db`.
 */
export const directOf = (db: Database): Database => db.direct ?? (db.primary ? directOf(db.primary) : db);

/**
 * Opens the database the configuration names, for a command-line tool: PostgreSQL with
 * DATABASE_DIRECT_URL, else DATABASE_URL (its sessions checked: see `checkSessionOptions`), else
 * PGlite in PGLITE_DIR, in this process, or through the server that owns the directory when one
 * runs and publishes its connection URL there (see `openServerDatabase` for the server itself).
 * @throws DirectoryInUseError when another process owns the directory and publishes no URL.
 * @throws Error naming DATABASE_DIRECT_URL when the PostgreSQL URL leads to a pooler.
 * @throws ReadOnlyDatabaseError when the PostgreSQL database is read-only (a replica).
 */
export async function openDatabase(config: Config): Promise<Database> {
  const url = config.DATABASE_DIRECT_URL ?? config.DATABASE_URL;
  if (url) {
    const setting = config.DATABASE_DIRECT_URL ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
    return refuseReadOnly(await checkSessionOptions(await openPostgres(config, url), config, setting), setting);
  }
  try {
    return await openPglite(config.PGLITE_DIR);
  } catch (error) {
    const url = error instanceof DirectoryInUseError ? ownersUrl(config.PGLITE_DIR, error.owner) : null;
    if (url === null) throw error;
    return openPostgres(config, url, { embedded: true });
  }
}

function ownersUrl(dir: string, owner: LockOwner | null): string | null {
  if (!owner || owner.hostname !== hostname() || owner.pid === process.pid) return null;
  return publishedUrl(dir, owner.pid);
}

function lockDirectory(dir: string): DirLock {
  mkdirSync(dir, { recursive: true });
  return acquireDirLock(dir);
}

/**
 * Opens an embedded database; `memory://` keeps it in memory, any other value is a data directory,
 * which this process then owns until `close` (or exit): see {@link acquireDirLock}.
 * @throws DirectoryInUseError when another live process holds the directory.
 */
export async function openPglite(dir: string, loadDataDir?: Blob): Promise<Database> {
  const lock = dir.startsWith('memory://') ? null : lockDirectory(dir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dir, loadDataDir ? { loadDataDir } : {});
  } catch (error) {
    lock?.release();
    throw error;
  }
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    currentRequestSignal()?.throwIfAborted();
    return (await pglite.query<T>(sql, params)).rows;
  };
  return {
    kind: 'pglite',
    schema: 'public',
    pglite,
    async execScript(sql) {
      await pglite.exec(sql);
    },
    rawQuery: query,
    probeQuery: query,
    preparedQuery: query,
    async close() {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** Most statement texts whose names {@link statementName} remembers (the repositories build a few hundred shapes). */
const NAMED_TEXTS = 1_000;
const names = new Map<string, string>();

/**
 * A stable name for a statement text: a digest, so equal texts share one prepared statement.
 * Remembered per text: hashing a statement of a few KB costs more than looking it up.
 */
export function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `q_${createHash('sha256').update(sql).digest('base64url').slice(0, 24)}`;
    if (names.size < NAMED_TEXTS) names.set(sql, name);
  }
  return name;
}

/** Time allowed to open one connection to PostgreSQL, in ms: past it the server counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Time limit of a health check statement, in ms. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * The rows of a driver result in an array of their own, the driver's array left empty. V8 may
 * allocate the driver's result arrays in the old generation (allocation-site pretenuring, once
 * many of them outlive a scavenge while their request waits); such an array, dead or not, keeps
 * every row in it alive through each scavenge until the next full collection, so the rows are
 * copied and promoted instead of dying young (measured: 870 KB promoted per scavenge serving the
 * native price query, 7 KB with the rows taken out).
 */
export function takeRows<T>(result: { rows: unknown[] }): T[] {
  return result.rows.splice(0) as T[];
}

/** A pg client that gives up opening its connection after {@link CONNECT_TIMEOUT_MS}, whatever its pool waits for. */
class PromptClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/**
 * Session options of a pool: schema, statement time limit (ms), custom plans, no JIT: a custom plan
 * is compiled again on each execution, and a read over a year of quarter-hours crosses
 * `jit_above_cost` (docs/operations.md: 0.5 s of compiling in a 2 s statement).
 */
export const sessionOptions = (schema: string, statementTimeoutMs: number) =>
  `-c search_path=${schema} -c statement_timeout=${statementTimeoutMs} -c plan_cache_mode=force_custom_plan -c jit=off`;

/**
 * Connections to the embedded engine's wire server per pool: it runs one statement at a time, so
 * more connections only queue there.
 */
const EMBEDDED_POOL_SIZE = 4;

/** How {@link openPostgres} reaches its server. */
export interface PostgresOptions {
  /**
   * The server is the embedded engine's wire server (see `startEngineThread`): one session shared
   * by every connection, in schema `public`, where a statement prepared by name by one connection
   * is prepared for all (see `batchExtendedQuery`). Statements are not cancelled at a request's
   * deadline (the engine has no cancellation, and `statement_timeout` has no effect).
   */
  readonly embedded?: boolean;
  /**
   * The URL leads to a transaction pooler (PgBouncer `pool_mode = transaction`): no session state
   * (see `poolerClient`), unnamed statements, cancellation by protocol cancel requests.
   */
  readonly pooled?: boolean;
}

/**
 * Opens a PostgreSQL pool whose sessions use the configured schema and request timeout, plus one
 * connection for health checks. Waiting for a pooled connection is not a failure: inside a request
 * it lasts until the request's time limit (see {@link cancellablePool}), elsewhere (API key
 * lookups, ingestion) at most REQUEST_TIMEOUT_MS; only opening a connection to PostgreSQL is held
 * to {@link CONNECT_TIMEOUT_MS}. The embedded engine's thread opens a connection only between two
 * statements, so there opening one is waiting for the busy engine, bounded like the wait for a
 * pooled connection (its refusal, when the thread is gone, is immediate).
 */
export async function openPostgres(
  config: Config,
  url: string,
  { embedded = false, pooled = false }: PostgresOptions = {},
): Promise<Database> {
  const schema = embedded ? 'public' : config.DATABASE_SCHEMA;
  const session = (timeoutMs: number): pg.PoolConfig => {
    if (embedded) return { Client: pg.Client };
    if (pooled) return { Client: poolerClient(PromptClient, transactionSettings(schema, timeoutMs)) };
    return { Client: PromptClient, options: sessionOptions(schema, timeoutMs) };
  };
  const pool = cancellablePool(
    {
      connectionString: url,
      max: embedded ? Math.min(config.DATABASE_POOL_SIZE, EMBEDDED_POOL_SIZE) : config.DATABASE_POOL_SIZE,
      ...session(config.REQUEST_TIMEOUT_MS),
      connectionTimeoutMillis: Math.max(config.REQUEST_TIMEOUT_MS, CONNECT_TIMEOUT_MS),
    },
    { cancel: embedded ? 'none' : pooled ? 'protocol' : 'backend' },
  );
  pool.on('error', () => undefined);
  const probe = new pg.Pool({
    connectionString: url,
    max: 1,
    ...session(PROBE_TIMEOUT_MS),
    connectionTimeoutMillis: embedded ? 0 : CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 60_000,
  });
  probe.on('error', () => undefined);
  const rawQuery = async <T>(sql: string, params: unknown[] = []) => takeRows<T>(await pool.query(sql, params));
  return {
    kind: embedded ? 'pglite' : 'postgres',
    schema,
    pool,
    async execScript(sql) {
      await pool.query(sql);
    },
    rawQuery,
    async probeQuery<T>(sql: string, params: unknown[] = []) {
      return (await probe.query(sql, params)).rows as T[];
    },
    preparedQuery: pooled
      ? rawQuery
      : async <T>(sql: string, params: unknown[] = []) =>
          takeRows<T>(await pool.query({ name: statementName(sql), text: sql, values: params })),
    async close() {
      await Promise.all([pool.end(), probe.end()]);
    },
  };
}
