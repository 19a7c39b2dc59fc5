/**
 * The embedded engine served off the main thread, with real processes: the server publishes a
 * connection URL in its data directory, through which the keys CLI and `psql` reach the running
 * server's database; a heavy statement neither delays `/healthz` nor the 504 at a request's
 * deadline, and the database answers again once it ends.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_NAME } from '../../src/db/engine-thread.js';
import { URL_FILE } from '../../src/db/published-url.js';
import { run, type Running, startServer } from '../support/processes.js';

const PSQL = '/usr/bin/psql';

function psql(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(PSQL, args, { timeout: 30_000 }, (error, stdout) => resolve({ code: error ? 1 : 0, stdout }));
  });
}

async function timed(url: string, init?: RequestInit): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

const root = mkdtempSync(join(tmpdir(), 'wire-'));
const dir = join(root, 'pglite');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const publishedUrl = () => JSON.parse(readFileSync(join(dir, URL_FILE), 'utf8')) as { pid: number; url: string };

/** Runs the server on `dir` with `env` for the tests of the enclosing block. */
function serving(env: Record<string, string>): () => Running & { url: string } {
  let server: Running & { url: string };
  beforeAll(async () => {
    server = await startServer({ PGLITE_DIR: dir, SEED_DEMO: 'false', ...env });
  }, 180_000);
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  return () => server;
}

describe('the embedded database is served over the wire protocol by the server that owns it', () => {
  const env = { PGLITE_DIR: dir, API_KEY_REQUIRED: 'true', API_KEY_CACHE_TTL_MS: '0' };
  const running = serving(env);

  it('publishes its connection URL and socket in the data directory', () => {
    const server = running();
    expect(publishedUrl()).toEqual({
      pid: server.pid,
      url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(dir)}`,
    });
    expect(existsSync(join(dir, SOCKET_NAME))).toBe(true);
  });

  it('accepts a key created by the keys CLI at once, and refuses it once revoked', async () => {
    const server = running();
    const created = await run('src/cli/keys.ts', ['create', 'wire'], env);
    expect(created.code).toBe(0);
    const key = created.stdout.match(/emk_\S+/)?.[0] as string;
    const id = created.stdout.match(/Created key (\d+)/)?.[1] as string;
    const prices = `${server.url}/api/v1/prices?zone=DE_LU`;
    expect((await timed(prices, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await run('src/cli/keys.ts', ['revoke', id], env)).code).toBe(0);
    expect((await timed(prices, { headers: { 'x-api-key': key } })).status).toBe(401);
  }, 60_000);

  it.skipIf(!existsSync(PSQL))('lets psql in through the data directory', async () => {
    const result = await psql(['-h', dir, '-U', 'postgres', '-Atc', 'select count(*) from zone']);
    expect(result).toEqual({ code: 0, stdout: expect.stringMatching(/^[1-9]\d*\n$/) });
  });
});

describe('a heavy statement on the embedded engine', () => {
  const running = serving({ REQUEST_TIMEOUT_MS: '500' });

  it('delays neither /healthz nor the 504 at the deadline, and the database answers again after it', async () => {
    const server = running();
    const client = new pg.Client({ connectionString: publishedUrl().url });
    await client.connect();
    try {
      const heavy = client.query('SELECT pg_sleep(3)');
      await new Promise((r) => setTimeout(r, 300));
      const health = await timed(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.ms).toBeLessThan(500);
      const late = await timed(`${server.url}/api/v1/prices?zone=DE_LU`);
      expect(late.status).toBe(504);
      expect(late.ms).toBeLessThan(1_500);
      await heavy;
      expect((await timed(`${server.url}/api/v1/prices?zone=DE_LU`)).status).toBe(200);
      expect((await timed(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await client.end();
    }
  }, 60_000);

  it('keeps /readyz answering within 2 s, 200 with status busy, while the engine runs a long statement', async () => {
    const server = running();
    const client = new pg.Client({ connectionString: publishedUrl().url });
    await client.connect();
    try {
      const heavy = client.query('SELECT pg_sleep(6)');
      await new Promise((r) => setTimeout(r, 300));
      const started = performance.now();
      const res = await fetch(`${server.url}/readyz`);
      const body = (await res.json()) as { status: string };
      expect({ status: res.status, body: body.status }).toEqual({ status: 200, body: 'busy' });
      expect(performance.now() - started).toBeLessThan(2_000);
      await heavy;
      const after = await fetch(`${server.url}/readyz`);
      expect(await after.json()).toEqual({
        status: 'ready',
        detail: 'ok',
        events: { state: 'listening', since: expect.any(String) },
      });
    } finally {
      await client.end();
    }
  }, 60_000);
});

describe('requests waiting behind a long statement on the embedded engine', () => {
  const running = serving({ REQUEST_TIMEOUT_MS: '7000' });

  it('end in 504 at their deadline, never 503 DATABASE_UNAVAILABLE', async () => {
    const server = running();
    const client = new pg.Client({ connectionString: publishedUrl().url });
    await client.connect();
    try {
      const heavy = client.query('SELECT pg_sleep(12)');
      await new Promise((r) => setTimeout(r, 300));
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => timed(`${server.url}/api/v1/prices?zone=DE_LU`)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(504));
      for (const a of answers) expect(a.ms).toBeLessThan(8_500);
      await heavy;
    } finally {
      await client.end();
    }
  }, 60_000);
});
