/**
 * `npm run ingest` while the server owns the embedded data directory: the CLI goes in through the
 * server's wire protocol, so its bulk load (binary COPY FROM STDIN) runs over the wire, and the
 * server's subscribers hear of its commit (the engine thread forwards the engine's notifications).
 * A run killed mid-way is closed as abandoned by the next one although the server, whose single
 * session held the run's lock, kept running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import { killStarted, run, start, startServer } from '../support/processes.js';
import { ABANDONED_MESSAGE } from '../../src/repositories/ingest/runs.js';
import { type FakeUpstream, fixture, startFakeUpstream, TOKEN } from './fake-upstream.js';
import { EIC, key } from './helpers.js';
import { subscribe } from '../events/sse.js';

const ES_REPLY = 'A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml';

describe('an ingestion run while the server owns the embedded database', () => {
  const root = mkdtempSync(join(tmpdir(), 'ingest-wire-'));
  const env = {
    PGLITE_DIR: join(root, 'pglite'),
    SEED_DEMO: 'false',
    ENTSOE_API_URL: '',
    ENTSOE_SECURITY_TOKEN: TOKEN,
  };
  let fake: FakeUpstream;
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    fake = await startFakeUpstream();
    fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture(ES_REPLY) });
    env.ENTSOE_API_URL = fake.url;
    server = await startServer(env);
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    killStarted();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('loads the served rows over the wire protocol of the server, whose subscribers hear of the commit', async () => {
    const stream = await subscribe(
      (path, init) => fetch(`${server.url}${path}`, init),
      'subscription { pricesPublished(zones: ["ES"]) { zones from to } }',
    );
    try {
      const argv = ['--from', '2025-09-29', '--to', '2025-10-03', '--zones', 'ES', '--what', 'prices'];
      const result = await run('src/cli/ingest.ts', argv, env);
      expect(result, result.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/240 row\(s\)/) });
      const url = server.output().match(/psql '([^']+)'/)?.[1] as string;
      const db = await openPostgres(testConfig({}), url, { embedded: true });
      try {
        const [stored] = await db.rawQuery<{ n: number; sources: string }>(
          `SELECT count(*)::int AS n, string_agg(DISTINCT source::text, ',') AS sources FROM price_point`,
        );
        expect(stored).toEqual({ n: 240, sources: 'entsoe' });
      } finally {
        await db.close();
      }
      const event = await stream.next(1_000);
      expect(event).toMatchObject({ data: { pricesPublished: { zones: ['ES'] } } });
    } finally {
      stream.close();
    }
  });

  it('keeps serving through junk NOTIFY payloads from a psql session and 16,000 events past a subscriber that stopped reading', async () => {
    const fetcher = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, init);
    const paused = await subscribe(fetcher, 'subscription { pricesPublished { zones } }');
    const watching = await subscribe(fetcher, 'subscription { pricesPublished(zones: ["FR"]) { zones } }');
    const db = await openPostgres(testConfig({}), server.output().match(/psql '([^']+)'/)?.[1] as string, {
      embedded: true,
    });
    const event = (area: string) =>
      JSON.stringify({
        schema: 'public',
        kind: 'prices',
        item: 'prices',
        areas: [area],
        from: '2025-10-01T00:00:00Z',
        to: '2025-10-02T00:00:00Z',
      });
    try {
      for (const payload of ['null', '[]', '42', 'x'.repeat(7_900), '{"schema":"public"}'])
        await db.rawQuery(`SELECT pg_notify('emk_data_public', $1)`, [payload]);
      await db.rawQuery(`SELECT pg_notify('emk_data_public', $1)`, [event('DE_LU')]);
      expect(await paused.next(2_000)).toMatchObject({ data: { pricesPublished: { zones: ['DE_LU'] } } });
      await db.rawQuery(
        `SELECT pg_notify('emk_data_public', json_build_object('schema', 'public', 'kind', 'prices', 'item', 'prices', 'areas', json_build_array('Z' || i),
           'from', '2025-10-01T00:00:00Z', 'to', '2025-10-02T00:00:00Z')::text) FROM generate_series(1, 16000) AS i`,
      );
      await db.rawQuery(`SELECT pg_notify('emk_data_public', $1)`, [event('FR')]);
      expect(await watching.next(20_000)).toMatchObject({ data: { pricesPublished: { zones: ['FR'] } } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      paused.close();
      watching.close();
      await db.close();
    }
  }, 60_000);

  it('closes a run whose CLI was killed (SIGKILL) while the server kept running as abandoned at the next run', async () => {
    const url = server.output().match(/psql '([^']+)'/)?.[1] as string;
    const db = await openPostgres(testConfig({}), url, { embedded: true });
    const runs = () =>
      db.rawQuery<{ id: number; status: string; error: string | null }>(
        `SELECT id, status::text AS status, error FROM ingestion_run ORDER BY id`,
      );
    try {
      fake.fail(key('A44', EIC.PT, EIC.PT), { kind: 'slow', delayMs: 60_000 });
      const argv = ['--from', '2025-10-05', '--to', '2025-10-06', '--zones', 'PT', '--what', 'prices'];
      const killed = start('src/cli/ingest.ts', argv, env);
      const slowTaken = () => fake.requests.some((r) => r.key === key('A44', EIC.PT, EIC.PT) && r.fault === 'slow');
      let running: { id: number } | undefined;
      for (let i = 0; i < 600 && !(running && slowTaken()); i++) {
        running = (await runs()).find((r) => r.status === 'running');
        if (!(running && slowTaken())) await new Promise((r) => setTimeout(r, 100));
      }
      expect(slowTaken(), killed.output()).toBe(true);
      expect(running, killed.output()).toBeDefined();
      killed.child.kill('SIGKILL');
      await killed.exited;
      expect((await runs()).find((r) => r.id === running!.id)).toMatchObject({ status: 'running' });

      const next = await run('src/cli/ingest.ts', argv, env);
      expect(next, next.stderr).toMatchObject({ code: 0 });
      const after = await runs();
      expect(after.find((r) => r.id === running!.id)).toEqual({
        id: running!.id,
        status: 'failed',
        error: ABANDONED_MESSAGE,
      });
      expect(after.at(-1)).toMatchObject({ status: 'done', error: null });
    } finally {
      await db.close();
    }
  }, 120_000);
});
