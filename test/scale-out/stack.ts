/**
 * The real components of the scale-out scenario, each started from Debian's binaries with the
 * project's own files: instances of the built service (`node dist/src/main.js`, each the leader of
 * its own process group), HAProxy running deploy/haproxy.cfg (one `server` line per instance),
 * Varnish running deploy/varnish.vcl in front of HAProxy. PgBouncer and the streaming replica come
 * from bench/pgbouncer.ts and test/support/replica.ts. Everything started here is registered for
 * {@link stopAll}, which kills what is left (process groups included) and removes the temporary
 * directories, also after a failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHILD_PATH } from '../support/env.js';
import { ROOT } from '../support/processes.js';
import { until } from '../support/wait.js';

export const HAPROXY = '/usr/sbin/haproxy';
export const VARNISHD = '/usr/sbin/varnishd';

const groups = new Set<ChildProcess>();
const dirs = new Set<string>();

/** A temporary directory removed by {@link stopAll}. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/** Spawns `command` as the leader of a new process group, output collected. */
function spawnGroup(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd = ROOT,
): { child: ChildProcess; output(): string } {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.add(child);
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  child.once('exit', () => groups.delete(child));
  return { child, output: () => text };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // already gone
  }
}

/** SIGCONT then SIGKILL to every process group still running, then removes the temporary directories. */
export function stopAll(): void {
  for (const child of groups) {
    killGroup(child, 'SIGCONT');
    killGroup(child, 'SIGKILL');
  }
  groups.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** One instance of the built service on a fixed port, restartable with the same settings. */
export interface Instance {
  readonly name: string;
  readonly url: string;
  readonly env: Readonly<Record<string, string>>;
  child(): ChildProcess;
  output(): string;
  /** Starts the process; resolves once it prints its ready line. */
  start(): Promise<void>;
  /** Sends `signal` to the process (not its group). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the exit code (null when killed) and the signal once the current process has exited. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** An instance `node dist/src/main.js` on `port` with only PATH and `env` in its environment. */
export function instance(name: string, port: number, env: Record<string, string>): Instance {
  let current: { child: ChildProcess; output(): string } | undefined;
  let log = '';
  const fullEnv = { PATH: CHILD_PATH, HOST: '127.0.0.1', PORT: String(port), ...env };
  const self: Instance = {
    name,
    url: `http://127.0.0.1:${port}`,
    env: fullEnv,
    child: () => current!.child,
    output: () => log + (current?.output() ?? ''),
    async start() {
      if (current) log += current.output();
      current = spawnGroup(process.execPath, [join(ROOT, 'dist/src/main.js')], fullEnv);
      const started = current;
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (/^Ready: /m.test(started.output())) finish();
          else if (started.child.exitCode !== null || started.child.signalCode !== null)
            finish(new Error(`${name} exited before it was ready:\n${started.output()}`));
        }, 50);
        const deadline = setTimeout(
          () => finish(new Error(`${name} not ready within 180 s:\n${started.output()}`)),
          180_000,
        );
        function finish(error?: Error) {
          clearInterval(timer);
          clearTimeout(deadline);
          if (error) reject(error);
          else resolve();
        }
      });
    },
    signal: (signal) => void current?.child.kill(signal),
    exited: () => {
      const child = current!.child;
      if (child.exitCode !== null || child.signalCode !== null)
        return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
      return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    },
  };
  return self;
}

/** HAProxy running deploy/haproxy.cfg with a `server` line per backend address. */
export async function startHaproxy(
  listen: number,
  stats: number,
  backends: readonly string[],
): Promise<{ url: string; stats: string; output(): string }> {
  const dir = tempDir('scale-out-haproxy-');
  const deployed = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
  const servers = backends.map((_, i) => `    server app${i + 1} "\${EMK_APP${i + 1}}" check`).join('\n');
  const cfg = deployed.replace(/^ {4}server app1 .*\n {4}server app2 .*$/m, servers);
  if (cfg === deployed) throw new Error('deploy/haproxy.cfg: its two `server` lines were not found');
  writeFileSync(join(dir, 'haproxy.cfg'), cfg);
  const env: Record<string, string> = {
    PATH: CHILD_PATH,
    EMK_LISTEN: `127.0.0.1:${listen}`,
    EMK_STATS: `127.0.0.1:${stats}`,
  };
  for (const [i, address] of backends.entries()) env[`EMK_APP${i + 1}`] = address;
  const proc = spawnGroup(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], env, dir);
  const url = `http://127.0.0.1:${listen}`;
  const statsUrl = `http://127.0.0.1:${stats}`;
  await until('HAProxy serves its stats page', async () => (await fetch(`${statsUrl}/stats;csv`)).ok, 20_000);
  return { url, stats: statsUrl, output: proc.output };
}

/** Varnish running deploy/varnish.vcl with its backend on 127.0.0.1:`backendPort`. */
export async function startVarnish(listen: number, backendPort: number): Promise<{ url: string; output(): string }> {
  const dir = tempDir('scale-out-varnish-');
  chmodSync(dir, 0o755); // as root, varnishd reads the VCL as its unprivileged user
  const deployed = readFileSync(join(ROOT, 'deploy/varnish.vcl'), 'utf8');
  const vcl = deployed.replace('.port = "4000";', `.port = "${backendPort}";`);
  if (vcl === deployed) throw new Error('deploy/varnish.vcl: its backend port was not found');
  writeFileSync(join(dir, 'varnish.vcl'), vcl);
  const proc = spawnGroup(
    VARNISHD,
    ['-F', '-n', join(dir, 'work'), '-a', `127.0.0.1:${listen}`, '-f', join(dir, 'varnish.vcl'), '-s', 'malloc,32m'],
    { PATH: CHILD_PATH },
  );
  const url = `http://127.0.0.1:${listen}`;
  await until(
    'Varnish answers',
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`varnishd exited: ${proc.output()}`);
      return (await fetch(`${url}/healthz`)).status < 600;
    },
    30_000,
  );
  return { url, output: proc.output };
}
