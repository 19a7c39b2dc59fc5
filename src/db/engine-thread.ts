/**
 * Runs the embedded engine off the main thread: a `worker_thread` owns PGlite on the data
 * directory and serves it over the PostgreSQL wire protocol on a Unix socket inside it, named as
 * PostgreSQL names its own (`<dir>/.s.PGSQL.5432`, so `psql -h <dir> -U postgres` connects), or on
 * 127.0.0.1 at a free port when the socket's path is too long for the platform.
 */
import { resolve, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Where the engine thread listens: a Unix socket path, or a TCP host and port. */
export type EngineEndpoint = { readonly socketPath: string } | { readonly host: string; readonly port: number };

/** What the engine thread is started with. */
export interface EngineThreadData {
  readonly dir: string;
  /** The Unix socket to listen on; absent for TCP on 127.0.0.1. */
  readonly socketPath?: string;
  readonly maxConnections: number;
  /** Channels the engine's session LISTENs on; their notifications are posted to the main thread. */
  readonly listen: readonly string[];
}

/** A running engine thread. */
export interface EngineThread {
  /** The connection URL of the engine (user `postgres`, database `postgres`). */
  readonly url: string;
  /** Calls `cb` with the payload of each notification on `channel` (one the thread LISTENs on); returns the unsubscribe. */
  onNotification(channel: string, cb: (payload: string) => void): () => void;
  /** Whether the thread still runs (however busy its engine is): false once it has exited. */
  alive(): boolean;
  /** Closes the wire server and the engine (flushing the data directory), then ends the thread. */
  stop(): Promise<void>;
}

/** Name of the Unix socket, as PostgreSQL names it for port 5432. */
export const SOCKET_NAME = '.s.PGSQL.5432';

/** Longest Unix socket path used (the platform limit is 104 to 108 bytes). */
const MAX_SOCKET_PATH = 100;

/** Connections the wire server accepts at once: the pools of the server and of the CLIs, plus psql. */
const MAX_CONNECTIONS = 64;

/** The connection URL of an endpoint. */
export function endpointUrl(endpoint: EngineEndpoint): string {
  if ('socketPath' in endpoint) {
    const dir = endpoint.socketPath.slice(0, -SOCKET_NAME.length - 1);
    return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(dir)}`;
  }
  return `postgresql://postgres@${endpoint.host}:${endpoint.port}/postgres`;
}

/**
 * The worker of the compiled build, or from the TypeScript sources (tests, `tsx`) a bootstrap that
 * registers tsx's loader first: on Node 20 a worker does not inherit the `--import tsx` hooks.
 */
function newWorker(data: EngineThreadData): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./engine-worker.js', import.meta.url), { workerData: data });
  const source = JSON.stringify(new URL('./engine-worker.ts', import.meta.url).href);
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); })`;
  return new Worker(bootstrap, { eval: true, workerData: data, execArgv: [] });
}

type WorkerReport =
  | { type: 'ready'; endpoint: EngineEndpoint }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };
type WorkerNotification = { type: 'notification'; channel: string; payload: string };

function nextReport(worker: Worker): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const onMessage = (report: WorkerReport | WorkerNotification) =>
      report.type !== 'notification' && done(() => resolve(report));
    const onError = (error: Error) => done(() => reject(error));
    const onExit = (code: number) =>
      done(() => reject(new Error(`the embedded engine's thread exited with code ${code}`)));
    function done(settle: () => void) {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      settle();
    }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/**
 * Starts the engine thread on the data directory `dir` (which this process must own: see
 * `acquireDirLock`), its session LISTENing on `listen`, and resolves once it accepts connections.
 * @throws Error when the engine cannot open the directory or listen.
 */
export async function startEngineThread(dir: string, listen: readonly string[] = []): Promise<EngineThread> {
  const socketPath = join(resolve(dir), SOCKET_NAME);
  const data: EngineThreadData = {
    dir,
    maxConnections: MAX_CONNECTIONS,
    listen,
    ...(Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH ? { socketPath } : {}),
  };
  const worker = newWorker(data);
  const report = await nextReport(worker);
  if (report.type !== 'ready') {
    await worker.terminate();
    throw new Error(report.type === 'failed' ? report.message : 'the embedded engine stopped while starting');
  }
  worker.on('error', (error) => process.emitWarning(`the embedded engine's thread failed: ${error.message}`));
  let stopping: Promise<void> | undefined;
  let exited = false;
  worker.once('exit', () => void (exited = true));
  return {
    url: endpointUrl(report.endpoint),
    alive: () => !exited,
    onNotification(channel, cb) {
      const onMessage = (m: WorkerReport | WorkerNotification) =>
        m.type === 'notification' && m.channel === channel && cb(m.payload);
      worker.on('message', onMessage);
      return () => void worker.off('message', onMessage);
    },
    stop() {
      stopping ??= (async () => {
        const stopped = nextReport(worker).catch(() => undefined);
        worker.postMessage('stop');
        await stopped;
        await worker.terminate();
      })();
      return stopping;
    },
  };
}
