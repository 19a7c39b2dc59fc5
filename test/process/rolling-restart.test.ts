/**
 * A rolling restart behind a real HAProxy running deploy/haproxy.cfg (health check `GET /readyz`
 * every 0.5 s, fall 1, rise 2, no retries): two servers on the embedded database, each with its
 * own data directory, take a steady stream of API requests through HAProxy while each in turn is
 * stopped with SIGTERM (a 2 s drain) and started again. Not one request may fail. Without HAProxy
 * the test skips, except under CI=true where it fails. The load comes from one client, so its
 * rate limit is raised.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CI } from '../support/env.js';
import { killStarted, ROOT, type Running, startServer } from '../support/processes.js';
import { serverStates } from '../support/haproxy.js';
import { until } from '../support/wait.js';
import { freePort } from '../support/ports.js';

const HAPROXY = '/usr/sbin/haproxy';
const MISSING = `haproxy not found at ${HAPROXY} (apt-get install haproxy): rolling restart test skipped`;
const PATH = '/api/v1/prices?zone=DE_LU';
const REQUESTS_PER_SECOND = 40;

/** Sends {@link REQUESTS_PER_SECOND} GETs a second to `url` until stopped; resolves with every outcome that was not a 200. */
function steadyLoad(url: string): { stop(): Promise<{ sent: number; failures: string[] }> } {
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  const fire = () => {
    sent++;
    const request = fetch(url, { signal: AbortSignal.timeout(10_000) })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(`${new Date().toISOString()} ${res.status}`);
      })
      .catch((err: unknown) => void failures.push(`${new Date().toISOString()} ${String(err)}`))
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  const timer = setInterval(fire, 1000 / REQUESTS_PER_SECOND);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { sent, failures };
    },
  };
}

describe('a rolling restart behind HAProxy (deploy/haproxy.cfg)', () => {
  const available = existsSync(HAPROXY);
  const dirs: string[] = [];
  let haproxy: ChildProcess | undefined;

  afterAll(async () => {
    if (haproxy && haproxy.exitCode === null) {
      const exited = new Promise((done) => haproxy!.once('exit', done));
      haproxy.kill('SIGKILL');
      await exited;
    }
    killStarted();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(available || CI)(
    'loses no request while each server in turn drains on SIGTERM, stops and starts again',
    async () => {
      if (!available) throw new Error(`${MISSING.replace('skipped', 'cannot run')}; CI=true requires it`);
      const [front, stats, ...ports] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
      const envs = ports.map((port) => {
        const dir = mkdtempSync(join(tmpdir(), 'rolling-restart-'));
        dirs.push(dir);
        return {
          PORT: String(port),
          PGLITE_DIR: dir,
          SEED_DEMO: 'true',
          DEMO_HISTORY_DAYS: '1',
          SHUTDOWN_DRAIN_SECONDS: '2',
          RATE_LIMIT_CAPACITY: '100000',
          TRUST_PROXY_HOPS: '1',
        };
      });
      const servers: Running[] = await Promise.all(envs.map((env) => startServer(env)));
      const statsUrl = `http://127.0.0.1:${stats}`;
      haproxy = spawn(HAPROXY, ['-db', '-f', join(ROOT, 'deploy/haproxy.cfg')], {
        cwd: tmpdir(),
        stdio: 'ignore',
        env: {
          EMK_LISTEN: `127.0.0.1:${front}`,
          EMK_STATS: `127.0.0.1:${stats}`,
          EMK_APP1: `127.0.0.1:${ports[0]}`,
          EMK_APP2: `127.0.0.1:${ports[1]}`,
        },
      });
      const bothUp = async () => Object.values(await serverStates(statsUrl)).join() === 'UP,UP';
      await until('HAProxy has both servers up', bothUp);

      const load = steadyLoad(`http://127.0.0.1:${front}${PATH}`);
      for (const [i, env] of envs.entries()) {
        await new Promise((r) => setTimeout(r, 1_000));
        const old = servers[i] as Running;
        old.child.kill('SIGTERM');
        expect((await old.exited).code).toBe(0);
        servers[i] = await startServer(env);
        await until(`HAProxy has server ${i + 1} up again`, bothUp);
      }
      await new Promise((r) => setTimeout(r, 1_000));
      const { sent, failures } = await load.stop();

      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(REQUESTS_PER_SECOND * 5);
    },
    300_000,
  );
});
