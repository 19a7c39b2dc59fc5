/**
 * Hostile A78 replies through the whole job: a zip bomb, a zip of too many entries, one without
 * XML, a damaged one. Each fails its window with the reason recorded, writes no outage, and leaves
 * the window to a later run, which stores the outage once the platform serves a sound zip.
 */
import { describe, expect } from 'vitest';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { upstreamTest as it } from '../support/fixtures.js';
import { corruptedZip, realOutageZip, zipBomb, zipOfSpaces, zipWithoutXml } from '../ingest/hostile-zips.js';
import type { FakeUpstream } from './fake-upstream.js';
import { EIC, fakeClient, ingest, key, rows } from './helpers.js';

const OUTAGES = key('A78', EIC.NL, EIC.BE);
const WINDOW = 'outages BE->NL 2020-11-18..2020-11-19';

const CASES: readonly { name: string; body: () => Uint8Array; error: string | RegExp }[] = [
  {
    name: 'a 64 MiB zip bomb',
    body: () => zipBomb(64),
    error: 'zip reply refused: entry "bomb.xml" expands past 16 MiB (limit per entry)',
  },
  {
    name: 'a zip of 1001 entries',
    body: () => zipOfSpaces(1001, 1),
    error: 'zip reply refused: more than 1000 entries (limit per zip)',
  },
  { name: 'a zip without XML', body: zipWithoutXml, error: 'zip reply refused: no XML entry among its 1 entries' },
  {
    name: 'a damaged zip',
    body: corruptedZip,
    error: /^zip reply refused: entry "001-001-PLANNED[^"]+\.xml" is corrupt \(.+\)$/,
  },
];

describe.each(TEST_BACKENDS)('hostile outage zips on %s', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let db!: Database;
  let fake!: FakeUpstream;
  it.beforeEach(({ fileDb, fileUpstream }) => {
    db = fileDb;
    fake = fileUpstream;
  });
  const run = (client: ReturnType<typeof fakeClient>['client']) =>
    ingest(db, client, '2020-11-18', '2020-11-19', { what: ['outages'], borders: ['BE->NL'] });
  const count = async (table: string) =>
    (await rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  it.beforeEach(async () => {
    await db.execScript('DELETE FROM border_outage; DELETE FROM ingestion_window; DELETE FROM ingestion_run;');
  });

  it.each(CASES)(
    '$name fails the window with its reason, stores no outage, and a later run fetches the window again',
    async ({ body, error }) => {
      fake.serve(OUTAGES, { body: Buffer.from(body()) });
      const { client } = fakeClient(fake);
      const first = await run(client);
      expect(first).toMatchObject({ planned: 1, completed: 0, rows: 0, fatal: null });
      expect(first.failed).toEqual([
        {
          window: WINDOW,
          error: expect.stringMatching(
            typeof error === 'string' ? `^${error.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` : error,
          ),
        },
      ]);
      const windows = await rows<{ status: string; error: string; rows: number }>(
        db,
        `SELECT status::text AS status, error, rows FROM ingestion_window`,
      );
      expect(windows).toEqual([{ status: 'failed', error: first.failed[0]!.error, rows: 0 }]);
      const runs = await rows<{ status: string; error: string }>(
        db,
        `SELECT status::text AS status, error FROM ingestion_run`,
      );
      expect(runs).toEqual([
        { status: 'failed', error: `1 window(s) failed; first: ${WINDOW}: ${first.failed[0]!.error}` },
      ]);
      expect(await count('border_outage')).toBe(0);

      fake.serve(OUTAGES, { body: Buffer.from(realOutageZip()) });
      const second = await run(client);
      expect(second).toMatchObject({ planned: 1, completed: 1, rows: 1, failed: [] });
      expect(await count('border_outage')).toBe(1);
    },
  );
});
