/**
 * The app behind a real shared cache: Debian's nginx, started here as one process (no master, so no
 * switch to another user even as root) on a free loopback port with its prefix, pid, temp and cache
 * paths in a temporary directory, caching every GET by URL, honouring
 * Cache-Control and Vary, and keeping a 200 without Cache-Control a minute (as Varnish's default
 * TTL would). Clients with different formats, codings, Origins and keys ask for the same URLs in
 * turn; each must get what it asked for. Without nginx the tests skip, except under CI=true where
 * they fail.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { PricesQuery } from '../../src/dashboard/queries.js';
import { dashboardDocumentText } from '../support/dashboard.js';
import { createApiKey } from '../../src/security/api-keys.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { CI } from '../support/env.js';
import { freePort } from '../support/ports.js';

const NGINX = '/usr/sbin/nginx';
const MISSING = `nginx not found at ${NGINX} (apt-get install nginx-light): shared cache tests skipped`;
const ORIGIN = 'https://dashboard.example';
const PRICES = '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-04';

async function listen(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port };
}

/** nginx's configuration: `/open/` and `/keyed/` proxied, with one cache, to the two apps. */
function nginxConf(dir: string, port: number, upstreams: Record<string, number>): string {
  const locations = Object.entries(upstreams).map(
    ([name, upstream]) => `
    location /${name}/ {
      proxy_pass http://127.0.0.1:${upstream}/;
      proxy_http_version 1.1;
      proxy_cache api;
      proxy_cache_valid 200 1m;
      add_header X-Cache $upstream_cache_status always;
    }`,
  );
  return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=api:1m;
  server {
    listen 127.0.0.1:${port};
${locations.join('\n')}
  }
}
`;
}

async function waitUntilServing(base: string, nginx: ChildProcess, dir: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (nginx.exitCode !== null)
      throw new Error(`nginx exited ${nginx.exitCode}: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    try {
      await fetch(`${base}/open/healthz`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('nginx did not start serving');
}

describe('the app behind a shared cache (nginx)', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const available = existsSync(NGINX);
  const open = blockApp(it);
  // Two apps over two databases: each holds the keys created for it.
  const keyed = blockApp(it, { config: { API_KEY_REQUIRED: true }, own: true });
  const servers: Server[] = [];
  let nginx: ChildProcess | undefined;
  let dir: string;
  let base: string;
  let key: string;

  /** A GET through nginx with `headers` (Accept-Encoding `identity` unless given: fetch would add its own). */
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, body, cache: res.headers.get('x-cache') };
  };

  beforeAll(() => {
    if (!available && CI) throw new Error(`${MISSING.replace('skipped', 'cannot run')}; CI=true requires them`);
  });

  // nginx in front of the block's two apps (built before this, closed after it).
  const cached = blockSetup(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((done) => nginx!.once('exit', done));
      nginx.kill('SIGTERM');
      await exited;
    }
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  it.beforeEach(() =>
    cached.run(async () => {
      key = (await createApiKey(keyed.db, 'shared cache')).key;
      const [a, b] = await Promise.all([listen(open.app.yoga), listen(keyed.app.yoga)]);
      servers.push(a.server, b.server);
      dir = mkdtempSync(join(tmpdir(), 'shared-cache-'));
      const port = await freePort();
      writeFileSync(join(dir, 'nginx.conf'), nginxConf(dir, port, { open: a.port, keyed: b.port }));
      nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
        stdio: 'ignore',
      });
      base = `http://127.0.0.1:${port}`;
      await waitUntilServing(base, nginx, dir);
    }),
  );

  const needsNginx = () => available;

  it.runIf(needsNginx())(
    'a browser that accepts no coding gets the identity body after one that took gzip (REST and GraphQL)',
    async () => {
      const graphql = `/graphql?query=${encodeURIComponent(dashboardDocumentText(PricesQuery))}&variables=${encodeURIComponent(JSON.stringify({ zones: ['DE_LU'], from: '2025-10-01', to: '2025-10-04', resolution: 'HOURLY', first: 72 }))}`;
      for (const path of [`/open${PRICES}`, `/open${graphql}`]) {
        const gzip = await get(path, { origin: ORIGIN, 'accept-encoding': 'gzip' });
        expect([gzip.status, gzip.headers.get('content-encoding')], path).toEqual([200, 'gzip']);
        const plain = await get(path, { origin: ORIGIN });
        expect(plain.status, path).toBe(200);
        expect(plain.headers.get('content-encoding'), path).toBeNull();
        expect(() => JSON.parse(plain.body.toString('utf8')), path).not.toThrow();
        const again = await get(path, { origin: ORIGIN, 'accept-encoding': 'gzip' });
        expect([again.cache, again.headers.get('content-encoding')], path).toEqual(['HIT', 'gzip']);
      }
    },
  );

  it.runIf(needsNginx())('a JSON client gets JSON after a CSV client asked for the same URL by Accept', async () => {
    const path = `/open${PRICES}&resolution=1D`;
    const csv = await get(path, { origin: ORIGIN, accept: 'text/csv' });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const json = await get(path, { origin: ORIGIN, accept: 'application/json' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(json.body.toString('utf8'))).toHaveProperty('data');
  });

  it.runIf(needsNginx())(
    'a browser gets its CORS headers after a client without Origin was answered, and each Origin its own',
    async () => {
      const path = `/open${PRICES}&resolution=1W`;
      expect((await get(path)).headers.get('access-control-allow-origin')).toBeNull();
      expect((await get(path, { origin: ORIGIN })).headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect((await get(path, { origin: 'https://other.example' })).headers.get('access-control-allow-origin')).toBe(
        'https://other.example',
      );
    },
  );

  it.runIf(needsNginx())(
    'with optional keys, a bad key is refused after an anonymous answer was cached, and an answer to a key is never cached',
    async () => {
      const path = `/open${PRICES}&resolution=1H`;
      const { key: openKey } = await createApiKey(open.db, 'shared cache open');
      const withKey = await get(path, { 'x-api-key': openKey });
      expect([withKey.status, withKey.headers.get('cache-control')]).toEqual([200, expect.stringMatching(/^private/)]);
      expect((await get(path, { 'x-api-key': openKey })).cache).not.toBe('HIT');
      const anonymous = await get(path);
      expect([anonymous.status, anonymous.headers.get('cache-control')]).toEqual([
        200,
        expect.stringMatching(/^public/),
      ]);
      expect((await get(path)).cache).toBe('HIT');
      expect((await get(path, { 'x-api-key': 'emk_invented' })).status).toBe(401);
    },
  );

  it.runIf(needsNginx())(
    'with keys required, a client without a key is refused after one with a key was answered (REST and GraphQL GET)',
    async () => {
      const graphql = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
      for (const path of [`/keyed${PRICES}`, `/keyed${graphql}`]) {
        const withKey = await get(path, { 'x-api-key': key });
        expect(withKey.status, path).toBe(200);
        expect(withKey.headers.get('cache-control'), path).toMatch(/^private/);
        expect((await get(path)).status, path).toBe(401);
      }
    },
  );

  it.runIf(needsNginx())(
    'errors are not kept: an invalid format after the valid URL is a 422, a GraphQL error is fetched anew',
    async () => {
      const path = `/open${PRICES}&resolution=auto`;
      expect((await get(path)).status).toBe(200);
      const bad = await get(`${path}&format=xlsx`);
      expect([bad.status, bad.headers.get('cache-control')]).toEqual([422, 'no-store']);
      const failing = `/open/graphql?query=${encodeURIComponent('{ nope }')}`;
      expect((await get(failing)).headers.get('cache-control')).toBe('no-store');
      expect((await get(failing)).cache).not.toBe('HIT');
    },
  );
});
