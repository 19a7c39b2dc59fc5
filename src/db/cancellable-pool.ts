import pg from 'pg';
import { currentRequestSignal } from '../deadline.js';
import { cancelRequest } from './pooler.js';

type AnyQuery = (...args: unknown[]) => unknown;

function backendPid(client: pg.PoolClient): number | undefined {
  return (client as unknown as { processID?: number }).processID;
}

async function cancelBackend(config: pg.PoolConfig, pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const side = new pg.Client({ ...config, statement_timeout: 5_000, connectionTimeoutMillis: 5_000 });
  try {
    await side.connect();
    await side.query('SELECT pg_cancel_backend($1)', [pid]);
  } catch {
    // Unreachable server: the statement timeout still ends the statement.
  } finally {
    await side.end().catch(() => undefined);
  }
}

/**
 * A pooled connection, or the signal's reason once it aborts while waiting for one: the wait is
 * bounded by the request, not by the pool. A connection handed over after that goes straight back.
 */
function acquire(pool: pg.Pool, signal: AbortSignal): Promise<pg.PoolClient> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pool.connect().then(
      (client) => {
        signal.removeEventListener('abort', onAbort);
        if (!signal.aborted) return resolve(client);
        client.release();
        reject(signal.reason);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** How a running statement is cancelled: `pg_cancel_backend` from another connection, a protocol cancel request, or not at all. */
export type Cancellation = 'backend' | 'protocol' | 'none';

async function queryUntil(
  pool: pg.Pool,
  config: pg.PoolConfig,
  signal: AbortSignal,
  args: unknown[],
  how: Cancellation,
): Promise<unknown> {
  const client = await acquire(pool, signal);
  let cancelling: Promise<void> | undefined;
  const cancel = () => {
    if (how === 'backend') cancelling = cancelBackend(config, backendPid(client));
    else if (how === 'protocol') cancelling = cancelRequest(client);
  };
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
  };
  client.on('error', onError);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await (client.query as AnyQuery)(...args);
  } finally {
    signal.removeEventListener('abort', cancel);
    if (cancelling) await cancelling;
    client.off('error', onError);
    client.release(broken ?? cancelling !== undefined);
  }
}

/**
 * A pg pool whose promise-style `query` calls made inside a request (see `withDeadline`) end with
 * the request: waiting for a free connection lasts until the request's signal aborts at the
 * latest (the error is then the signal's reason, the request's TIMEOUT), a statement is refused
 * once the signal has aborted, and the statement running when it aborts is cancelled in the
 * server (`pg_cancel_backend` from a separate connection), its connection then discarded rather
 * than returned to the pool. Outside a request, and for callback or submittable (COPY) calls, it
 * is a plain pool. With `cancel: 'protocol'` the statement is cancelled by a protocol cancel request
 * instead (through a pooler, whose backend pids are not the server's); with `cancel: 'none'` (a
 * server without cancellation) it is left to finish, its connection then returned to the pool.
 */
export function cancellablePool(
  config: pg.PoolConfig,
  { cancel = 'backend' }: { cancel?: Cancellation } = {},
): pg.Pool {
  const pool = new pg.Pool(config);
  const plain = pool.query.bind(pool) as AnyQuery;
  const query: AnyQuery = (...args) => {
    const signal = currentRequestSignal();
    const last = args[args.length - 1];
    const submittable = typeof (args[0] as { submit?: unknown } | undefined)?.submit === 'function';
    if (!signal || typeof last === 'function' || submittable) return plain(...args);
    return queryUntil(pool, config, signal, args, cancel);
  };
  pool.query = query as pg.Pool['query'];
  return pool;
}
