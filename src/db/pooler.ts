/**
 * Connections through a transaction pooler (PgBouncer with `pool_mode = transaction`), which hands
 * each transaction whatever server connection is free: nothing may rest on session state. So the
 * pooled connections send no startup options; every statement outside a transaction runs in one of
 * its own, opened with `SET LOCAL` of the schema, the statement time limit and `jit` and committed
 * after it, all written at once (pipelined: one round trip); an explicit transaction
 * gets the same `SET LOCAL`s after its BEGIN. Statements are unnamed (planned for each execution's
 * values, so `plan_cache_mode` is moot), and a statement is cancelled by a cancel request on the
 * protocol, which the pooler forwards to the server connection running it (a backend pid seen
 * through the pooler is the pooler's, not the server's).
 */
import { connect } from 'node:net';
import type pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './client.js';

type AnyQuery = (...args: unknown[]) => unknown;
type Callback = (err: unknown, result?: unknown) => void;

/** The settings each transaction through the pooler starts with: schema, statement time limit (ms), no JIT (see `sessionOptions`). */
export const transactionSettings = (schema: string, statementTimeoutMs: number) =>
  `SET LOCAL search_path = ${schema}; SET LOCAL statement_timeout = ${statementTimeoutMs}; SET LOCAL jit = off`;

const BEGINS = /^\s*(?:begin|start\s+transaction)\b/i;

function queryText(config: unknown): string {
  if (typeof config === 'string') return config;
  return (config as { text?: string } | null)?.text ?? '';
}

/** Whether a connection is inside a transaction block ('T', or 'E' failed); null before its first statement completes. */
const inTransaction = (status: ReturnType<pg.Client['getTransactionStatus']>) => status === 'T' || status === 'E';

/** The first rejection's reason in order, else the value of `results[index]`. */
function outcome(results: PromiseSettledResult<unknown>[], index: number): unknown {
  for (const r of results) if (r.status === 'rejected') throw r.reason;
  return (results[index] as PromiseFulfilledResult<unknown>).value;
}

/**
 * A client class for connections through a transaction pooler (see the module comment), built on
 * `Base`: its statements carry the `settings` of {@link transactionSettings}. COPY and cursors are
 * refused (the client pipelines); they belong on the direct connection.
 */
export function poolerClient(Base: typeof pg.Client, settings: string): typeof pg.Client {
  return class PoolerClient extends Base {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, pipeline: true });
      const plain = this.query.bind(this) as AnyQuery;
      const run = (args: unknown[]): Promise<unknown> => {
        if (inTransaction(this.getTransactionStatus())) return plain(...args) as Promise<unknown>;
        if (BEGINS.test(queryText(args[0]))) {
          return Promise.allSettled([plain(...args), plain(settings)]).then((results) => outcome(results, 0));
        }
        return Promise.allSettled([plain(`BEGIN; ${settings}`), plain(...args), plain('COMMIT')]).then((results) =>
          outcome(results, 1),
        );
      };
      const query: AnyQuery = (...args) => {
        if (typeof (args[0] as { submit?: unknown } | null)?.submit === 'function') return plain(...args);
        const callback = typeof args.at(-1) === 'function' ? (args.pop() as Callback) : undefined;
        const result = run(args);
        if (!callback) return result;
        result.then((value) => callback(undefined, value), callback);
        return undefined;
      };
      this.query = query as pg.Client['query'];
    }
  };
}

/** Time allowed to deliver a cancel request, ms. */
const CANCEL_TIMEOUT_MS = 5_000;
/** The protocol's CancelRequest code. */
const CANCEL_REQUEST_CODE = 80877102;

/**
 * Sends the protocol's cancel request for the statement `client` runs, on a connection of its own
 * to the client's host and port, and waits for the server to close it (as libpq does): resolves
 * once handled, or given up after 5 s. Hanging up first loses the cancel at PgBouncer, and makes
 * 1.18 exit (`bad client state: 0`, pgbouncer/pgbouncer#801).
 */
export function cancelRequest(client: pg.ClientBase): Promise<void> {
  const { processID, secretKey, host, port } = client as unknown as {
    processID: number | null;
    secretKey: number | null;
    host: string;
    port: number;
  };
  if (processID === null || secretKey === null) return Promise.resolve();
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = connect(port, host, () => socket.write(message));
    socket.setTimeout(CANCEL_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
  });
}

/** The setting naming a PostgreSQL connection. */
export type UrlSetting = 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DATABASE_READ_URL';

/** Why a connection's session options did not arrive (`how`: refused or ignored): a pooler in the way. */
function poolerMessage(setting: UrlSetting, how: string): string {
  return setting !== 'DATABASE_DIRECT_URL'
    ? `${setting} leads to a connection pooler (the server ${how} the session options search_path and statement_timeout): ` +
        `set DATABASE_DIRECT_URL to a direct connection to the primary server (LISTEN, the ingest leader, migrations and ingestion need one) and keep ${setting} on the pooler`
    : `DATABASE_DIRECT_URL leads to a connection pooler (the server ${how} the session options search_path and statement_timeout): it must name the server itself`;
}

/**
 * `db` (opened without `pooled`), once its sessions are found to carry their options (schema and
 * statement time limit): closed when they do not, and an error naming DATABASE_DIRECT_URL thrown,
 * for a pooler that refuses the `options` startup parameter or drops it
 * (`ignore_startup_parameters = options`).
 */
export async function checkSessionOptions(db: Database, config: Config, setting: UrlSetting): Promise<Database> {
  try {
    const [row] = await db.rawQuery<{ path: string; timeout: string }>(
      `SELECT current_setting('search_path') AS path, (SELECT setting FROM pg_settings WHERE name = 'statement_timeout') AS timeout`,
    );
    if (row?.path !== config.DATABASE_SCHEMA || row.timeout !== String(config.REQUEST_TIMEOUT_MS))
      throw new Error(poolerMessage(setting, 'ignored'));
    return db;
  } catch (error) {
    await db.close().catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    throw /unsupported startup parameter/i.test(message)
      ? new Error(poolerMessage(setting, 'refused'), { cause: error })
      : error;
  }
}
