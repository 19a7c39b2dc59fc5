/**
 * A real PgBouncer (Debian's, at /usr/sbin/pgbouncer) in transaction mode, started as a child on a
 * free loopback port: its configuration (in a temporary directory) is deploy/pgbouncer.ini with the
 * address, the server, trust auth and the pool size replaced. As root it runs as `postgres`.
 * For test/process/pgbouncer.test.ts and the bench's pooled leg (bench/pooler.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/project-root.js';
import { freePort } from './startup.js';

export const PGBOUNCER = '/usr/sbin/pgbouncer';
const DEPLOYED = join(PROJECT_ROOT, 'deploy/pgbouncer.ini');

/** Whether PgBouncer is installed. */
export const pgbouncerAvailable = (): boolean => existsSync(PGBOUNCER);

/**
 * deploy/pgbouncer.ini with every database on `server` (libpq-style `host=... port=...`) and the
 * [pgbouncer] settings of `settings` in place of its own (those it lacks appended: it ends in that
 * section). PgBouncer reads a repeated section as a fresh one, so an override cannot follow it.
 */
function deployedWith(server: string, settings: Record<string, string>): string {
  const pending = new Map(Object.entries(settings));
  const lines = readFileSync(DEPLOYED, 'utf8')
    .split('\n')
    .map((line) => {
      if (/^\*\s*=/.test(line)) return `* = ${server}`;
      const key = /^(\w+)\s*=/.exec(line)?.[1];
      if (key === undefined || !pending.has(key)) return line;
      const value = pending.get(key);
      pending.delete(key);
      return `${key} = ${value}`;
    });
  return `${lines.join('\n')}\n${[...pending].map(([key, value]) => `${key} = ${value}`).join('\n')}\n`;
}

/** A running PgBouncer: `url` is the server's URL with the pooler's host and port. */
export interface Bouncer {
  readonly url: string;
  /** What PgBouncer logged so far (its stderr). */
  log(): string;
  stop(): Promise<void>;
}

/** Starts PgBouncer in front of `server`, `poolSize` server connections per pool; `extra` lines go to its [pgbouncer] section. */
export async function startPgbouncer(
  server: string,
  { extra = '', poolSize = 2 }: { extra?: string; poolSize?: number } = {},
): Promise<Bouncer> {
  const target = new URL(server);
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const users = join(dir, 'users.txt');
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(users, `"${decodeURIComponent(target.username) || 'postgres'}" ""\n`, { mode: 0o644 });
  const settings: Record<string, string> = {
    listen_addr: '127.0.0.1',
    listen_port: String(port),
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: users,
    default_pool_size: String(poolSize),
    reserve_pool_size: '0',
  };
  writeFileSync(ini, `${deployedWith(`host=${target.hostname} port=${target.port || 5432}`, settings)}${extra}\n`, {
    mode: 0o644,
  });
  const child: ChildProcess = spawn(PGBOUNCER, process.getuid?.() === 0 ? ['-u', 'postgres', ini] : [ini], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; !/listening on 127\.0\.0\.1/.test(log); i++) {
    if (child.exitCode !== null || i > 100) {
      await stop();
      throw new Error(`pgbouncer did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = new URL(server);
  url.host = `127.0.0.1:${port}`;
  return { url: url.toString(), log: () => log, stop };
}
