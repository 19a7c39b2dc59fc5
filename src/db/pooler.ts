/**
 * Connections through a transaction pooler (PgBouncer with `pool_mode = transaction`), which hands
 * each transaction whatever server connection is free: nothing may rest on session state. So the
 * pooled connections send no startup options; every statement outside a transaction runs in one of
 * its own, opened with `SET LOCAL` of the schema and the statement time limit and committed after
 * it, the three written at once (pipelined: one round trip, not three); an explicit transaction
 * gets the same `SET LOCAL`s after its BEGIN. Statements are unnamed (planned for each execution's
 * values, so `plan_cache_mode` is moot), and a statement is cancelled by a cancel request on the
 * protocol, which the pooler forwards to the server connection running it (a backend pid seen
 * through the pooler is the pooler's, not the server's).
 */
import { connect } from 'node:net';
import type pg from 'pg';

type AnyQuery = (...args: unknown[]) => unknown;
type Callback = (err: unknown, result?: unknown) => void;

/** The settings each transaction through the pooler starts with: schema, statement time limit (ms). */
export const transactionSettings = (schema: string, statementTimeoutMs: number) =>
  `SET LOCAL search_path = ${schema}; SET LOCAL statement_timeout = ${statementTimeoutMs}`;

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
        return Promise.allSettled([plain(`BEGIN; ${settings}`), plain(...args), plain('COMMIT')]).then((results) => outcome(results, 1));
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
 * to the client's host and port; resolves once delivered, or given up after 5 s.
 */
export function cancelRequest(client: pg.ClientBase): Promise<void> {
  const { processID, secretKey, host, port } = client as unknown as { processID: number | null; secretKey: number | null; host: string; port: number };
  if (processID === null || secretKey === null) return Promise.resolve();
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = connect(port, host, () => socket.end(message));
    socket.setTimeout(CANCEL_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
  });
}
