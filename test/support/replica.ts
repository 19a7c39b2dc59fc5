/**
 * A real PostgreSQL streaming replica of the test server for the tests: deploy/replica.sh copies
 * the primary (pg_basebackup -R) into a temporary directory and starts it as a hot standby on a free
 * loopback port; `stop` stops it and removes the directory.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CHILD_PATH } from './env.js';
import { ROOT } from './processes.js';
import { freePort } from './ports.js';

const SCRIPT = join(ROOT, 'deploy', 'replica.sh');
/** Longest a start (a whole copy of the test server) or a stop may take, ms. */
const SCRIPT_TIMEOUT_MS = 180_000;
/** Lines of the replica's log shown by `log()`. */
const LOG_LINES = 30;

/** A running replica: `url` is the primary's URL with the replica's port. */
export interface Replica {
  readonly url: string;
  /** The last lines of the replica's server log. */
  log(): string;
  stop(): Promise<void>;
}

/** Whether pg_basebackup runs on this machine. */
export function replicaToolsAvailable(): boolean {
  return spawnSync('pg_basebackup', ['--version'], { env: { PATH: CHILD_PATH }, stdio: 'ignore' }).status === 0;
}

async function replicaScript(action: 'start' | 'stop', port: number, dir: string, primary: URL): Promise<void> {
  const env = {
    PATH: CHILD_PATH,
    PRIMARY_HOST: primary.hostname,
    PRIMARY_PORT: primary.port || '5432',
    PRIMARY_USER: decodeURIComponent(primary.username) || 'postgres',
  };
  await promisify(execFile)('bash', [SCRIPT, action, String(port), dir], { env, timeout: SCRIPT_TIMEOUT_MS });
}

/** Starts a streaming replica of the server at `primaryUrl` (see the module comment). */
export async function startReplica(primaryUrl: string): Promise<Replica> {
  const primary = new URL(primaryUrl);
  const dir = mkdtempSync(join(tmpdir(), 'replica-'));
  const port = await freePort();
  const stop = async () => {
    try {
      await replicaScript('stop', port, dir, primary);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await replicaScript('start', port, dir, primary);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  const url = new URL(primaryUrl);
  url.host = `127.0.0.1:${port}`;
  const log = () => {
    try {
      return readFileSync(join(dir, 'log'), 'utf8').split('\n').slice(-LOG_LINES).join('\n');
    } catch {
      return '(no log)';
    }
  };
  return { url: url.toString(), log, stop };
}
