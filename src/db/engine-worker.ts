/**
 * The embedded engine's thread: opens PGlite on a data directory and serves it over the
 * PostgreSQL wire protocol (`@electric-sql/pglite-socket`, which multiplexes connections onto the
 * engine's single session, one statement at a time, a transaction's statements together; a COPY
 * FROM STDIN batched into one call: see `batchCopyIn`). Started
 * by {@link startEngineThread}; LISTENs on `listen` and reports each notification as
 * `{ type: 'notification', channel, payload }` (see `forwardNotifications`); reports `{ type: 'ready', endpoint }` or `{ type: 'failed', message }`,
 * and on the message `'stop'` closes the server and the engine, then reports `{ type: 'stopped' }`.
 */
import '../compile-cache.js';
import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { batchCopyIn } from './copy-batching.js';
import { batchExtendedQuery } from './extended-batching.js';
import { forwardNotifications } from './wire-notifications.js';
import type { EngineEndpoint, EngineThreadData } from './engine-thread.js';

// Loaded once the compile cache is on (static imports are compiled before it turns on).
const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
  import('@electric-sql/pglite'),
  import('@electric-sql/pglite-socket'),
]);

const data = workerData as EngineThreadData;
const port = parentPort;

/**
 * Start parameters of the engine: PGlite's own, plus `wal_level = minimal`, under which a bulk load
 * into a table truncated in its own transaction (the demo load's first start) writes its pages
 * once, at commit, instead of through the WAL as well; crash safety is unchanged. Statements
 * prepared by name are planned for each execution's values (`plan_cache_mode`), as on PostgreSQL
 * (see `sessionOptions`). `random_page_cost` 1.1 as for data in memory or on SSD (the directory is
 * read through the OS cache): at the default 4 the planner reads two days of one zone's prices
 * through the `ts` index, filtering out the other zones' rows (5,768 buffers, 1.3 ms), instead of
 * the (zone_id, ts) primary key (7 buffers, 0.08 ms).
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'wal_level=minimal',
  '-c',
  'max_wal_senders=0',
  '-c',
  'plan_cache_mode=force_custom_plan',
  '-c',
  'random_page_cost=1.1',
];

async function serve(): Promise<void> {
  const db = await PGlite.create(data.dir, { startParams: START_PARAMS });
  for (const channel of data.listen) await db.exec(`LISTEN "${channel.replaceAll('"', '""')}"`);
  if (data.socketPath) rmSync(data.socketPath, { force: true });
  const server = new PGLiteSocketServer({
    db: forwardNotifications(batchCopyIn(batchExtendedQuery(db)), (n) =>
      port?.postMessage({ type: 'notification', ...n }),
    ),
    maxConnections: data.maxConnections,
    ...(data.socketPath ? { path: data.socketPath } : { host: '127.0.0.1', port: 0 }),
  });
  await server.start();
  const conn = server.getServerConn();
  const endpoint: EngineEndpoint = data.socketPath
    ? { socketPath: data.socketPath }
    : { host: '127.0.0.1', port: Number(conn.slice(conn.lastIndexOf(':') + 1)) };
  port?.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void server
      .stop()
      .then(() => db.close())
      .finally(() => {
        if (data.socketPath) rmSync(data.socketPath, { force: true });
        port.postMessage({ type: 'stopped' });
      });
  });
  port?.postMessage({ type: 'ready', endpoint });
}

serve().catch((error: unknown) => {
  port?.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
});
