/**
 * deploy/nginx.conf run as is by Debian's nginx (one process, no master), only its addresses and
 * paths substituted, in front of the app: answers are stored as their Cache-Control says, and a hit
 * never replays the RateLimit headers of the client whose request filled it while a miss carries the
 * caller's own. Without nginx the tests skip, except under CI=true where they fail.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { CI } from '../support/env.js';
import { freePort } from '../support/ports.js';
import { ROOT } from '../support/processes.js';

const NGINX = '/usr/sbin/nginx';
const MISSING = `nginx not found at ${NGINX} (apt-get install nginx-light): deploy/nginx.conf tests skipped`;
const PRICES = '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-04';
const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/** deploy/nginx.conf listening on `port`, proxying to `upstream`, its files in `dir`. */
function deployedConf(dir: string, port: number, upstream: number): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join(' ');
  return readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8')
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('server 127.0.0.1:4000;', `server 127.0.0.1:${upstream};`)
    .replaceAll('/var/cache/eumarket', `${dir}/cache`)
    .replaceAll('/run/eumarket-nginx', dir)
    .replace('http {', `http {\n    ${temp}`);
}

describe('deploy/nginx.conf in front of the app', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const available = existsSync(NGINX);
  const app = blockApp(it);
  let server: Server;
  let nginx: ChildProcess | undefined;
  let dir: string;
  let base: string;

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } });
    await res.arrayBuffer();
    return {
      status: res.status,
      cache: res.headers.get('x-cache'),
      rateLimit: RATE_LIMIT_HEADERS.map((h) => res.headers.get(h)),
    };
  };

  beforeAll(() => {
    if (!available && CI) throw new Error(`${MISSING.replace('skipped', 'cannot run')}; CI=true requires them`);
  });

  // nginx in front of the block's app (built before this, closed after it: the blocks' teardowns run in reverse).
  const proxied = blockSetup(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((done) => nginx!.once('exit', done));
      nginx.kill('SIGTERM');
      await exited;
    }
    server?.closeAllConnections();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  it.beforeEach(
    () =>
      proxied.run(async () => {
        server = createServer(app.app.yoga);
        await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
        dir = mkdtempSync(join(tmpdir(), 'nginx-conf-'));
        const port = await freePort();
        writeFileSync(join(dir, 'nginx.conf'), deployedConf(dir, port, (server.address() as AddressInfo).port));
        nginx = spawn(
          NGINX,
          [
            '-p',
            dir,
            '-c',
            join(dir, 'nginx.conf'),
            '-e',
            join(dir, 'error.log'),
            '-g',
            'daemon off; master_process off;',
          ],
          { stdio: 'ignore' },
        );
        base = `http://127.0.0.1:${port}`;
        for (let i = 0; ; i++) {
          if (nginx.exitCode !== null || i > 100)
            throw new Error(`nginx did not start: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
          if (
            await fetch(`${base}/healthz`).then(
              () => true,
              () => false,
            )
          )
            break;
          await new Promise((r) => setTimeout(r, 100));
        }
      }),
    60_000,
  );

  it.runIf(available)("a miss carries the caller's RateLimit headers, a hit none", async () => {
    const miss = await get(PRICES);
    expect([miss.status, miss.cache]).toEqual([200, 'MISS']);
    expect(miss.rateLimit).toEqual([
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
    ]);
    const hit = await get(PRICES);
    expect([hit.status, hit.cache, ...hit.rateLimit]).toEqual([200, 'HIT', null, null, null]);
  });

  it.runIf(available)('an error answer (no-store) is fetched anew', async () => {
    const bad = `${PRICES}&format=xlsx`;
    expect((await get(bad)).status).toBe(422);
    expect((await get(bad)).cache).not.toBe('HIT');
  });
});
