/**
 * `npm run ingest` while the server owns the embedded data directory: the CLI goes in through the
 * server's wire protocol, so its bulk load (binary COPY FROM STDIN) runs over the wire, and the
 * server's subscribers hear of its commit (the engine thread forwards the engine's notifications).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import { killStarted, run, startServer } from '../support/processes.js';
import { type FakeUpstream, fixture, startFakeUpstream, TOKEN } from './fake-upstream.js';
import { EIC, key } from './helpers.js';
import { subscribe } from '../events/sse.js';

const ES_REPLY = 'A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml';

describe('an ingestion run while the server owns the embedded database', () => {
  const root = mkdtempSync(join(tmpdir(), 'ingest-wire-'));
  const env = { PGLITE_DIR: join(root, 'pglite'), SEED_DEMO: 'false', ENTSOE_API_URL: '', ENTSOE_SECURITY_TOKEN: TOKEN };
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream();
    fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture(ES_REPLY) });
    env.ENTSOE_API_URL = fake.url;
  });
  afterAll(async () => {
    killStarted();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('loads the served rows over the wire protocol of the server, whose subscribers hear of the commit', async () => {
    const server = await startServer(env);
    const stream = await subscribe((path, init) => fetch(`${server.url}${path}`, init), 'subscription { pricesPublished(zones: ["ES"]) { zones from to } }');
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
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
