/**
 * Resumability and atomicity of the job: a failure inside a window's transaction leaves nothing of
 * that window and keeps earlier windows; an abort abandons the in-flight window; re-runs fetch only
 * what is missing; paged price replies are followed by offset (a server ignoring it fails the window
 * instead of looping); follow mode fetches the unsettled part.
 */
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { follow } from '../../src/ingest/follow.js';
import { runIngest } from '../../src/ingest/job.js';
import { upstreamTest as it } from '../support/fixtures.js';
import { fixture } from './fake-upstream.js';
import { a44, a44Days, EIC, fakeClient, ingest, key, rows } from './helpers.js';

it.beforeEach(({ upstream: fake }) => {
  fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture('A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml') });
  fake.serve(key('A44', EIC.PT, EIC.PT), { body: a44(EIC.PT, '2025-09-28T22:00Z', Array(96).fill(42)) });
  fake.serve(key('A44', EIC.FR, EIC.FR), { body: a44(EIC.FR, '2025-09-28T22:00Z', Array(96).fill(61)) });
});

const count = async (db: Database, table: string, zone: string) =>
  (
    await rows<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM ${table} x JOIN zone z ON z.id = x.zone_id WHERE z.code = $1`,
      [zone],
    )
  )[0]!.n;

describe('atomicity and resumption', () => {
  it('rolls back a window whose commit fails and keeps the windows before it', async ({ db, upstream: fake }) => {
    await db.execScript(`
      CREATE FUNCTION fail_pt() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.area_key = 'PT' AND NEW.status = 'done' THEN RAISE EXCEPTION 'simulated failure while committing PT'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER fail_pt BEFORE INSERT ON ingestion_window FOR EACH ROW EXECUTE FUNCTION fail_pt();`);
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES', 'PT', 'FR'] });
    expect(s.fatal?.message).toMatch(/simulated failure while committing PT/);
    expect([
      await count(db, 'price_point', 'ES'),
      await count(db, 'price_point', 'PT'),
      await count(db, 'price_daily', 'PT'),
    ]).toEqual([240, 0, 0]);
    expect(fake.requests.map((r) => r.params.in_Domain)).toEqual([EIC.ES, EIC.PT]);

    await db.execScript('DROP TRIGGER fail_pt ON ingestion_window');
    const again = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES', 'PT', 'FR'] });
    expect(again).toMatchObject({ planned: 2, completed: 2, fatal: null, requests: 2 });
    expect([await count(db, 'price_point', 'PT'), await count(db, 'price_point', 'FR')]).toEqual([96, 96]);
  });

  it('abandons the window in flight when aborted and resumes from there', async ({ db, upstream: fake }) => {
    fake.fail(key('A44', EIC.PT, EIC.PT), { kind: 'slow', delayMs: 2000 });
    const controller = new AbortController();
    const { client } = fakeClient(fake);
    const progress = {
      start() {},
      begin(label: string) {
        if (label.startsWith('prices PT')) setTimeout(() => controller.abort(new Error('interrupted')), 100);
      },
      end() {},
      note() {},
      finish() {},
    };
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', {
      zones: ['ES', 'PT', 'FR'],
      signal: controller.signal,
      progress,
    });
    expect(s).toMatchObject({ completed: 1, interrupted: true, fatal: null, failed: [] });
    expect(await count(db, 'price_point', 'PT')).toBe(0);
    const windows = await rows<{ area_key: string }>(db, 'SELECT area_key FROM ingestion_window');
    expect(windows.map((w) => w.area_key)).toEqual(['ES']);
    const run = await rows<{ status: string; error: string }>(
      db,
      'SELECT status::text AS status, error FROM ingestion_run',
    );
    expect(run[0]).toEqual({ status: 'failed', error: 'interrupted' });

    const again = await ingest(db, fakeClient(fake).client, '2025-09-29', '2025-10-03', {
      zones: ['ES', 'PT', 'FR'],
    });
    expect(again).toMatchObject({ planned: 2, completed: 2 });
  });

  it('follows the offset of a paged price reply while pages come back full', async ({ db, upstream: fake }) => {
    fake.serve(key('A44', EIC.ES, EIC.ES), { body: a44Days(EIC.ES, '2024-01-01T00:00Z', 100) });
    fake.serve(`${key('A44', EIC.ES, EIC.ES)}#100`, { body: a44Days(EIC.ES, '2024-04-10T00:00Z', 5) });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2024-01-01', '2024-04-15', { zones: ['ES'] });
    expect(s).toMatchObject({ completed: 1, rows: 105 * 24, requests: 2 });
    expect(fake.requests.map((r) => r.params.offset)).toEqual([undefined, '100']);
  });

  it('fails the window without looping or storing twice when the platform ignores offset', async ({
    db,
    upstream: fake,
  }) => {
    const page = a44Days(EIC.ES, '2024-01-01T00:00Z', 100);
    // The same series again, as a new document: other mRID and createdDateTime (bytes differ).
    const same = page.replace(
      '<mRID>test</mRID>',
      '<mRID>5e1f0c2a9b7d4e3f8a6b1c2d3e4f5a6b</mRID><createdDateTime>2024-04-20T10:00:01Z</createdDateTime>',
    );
    fake.serve(key('A44', EIC.ES, EIC.ES), { body: page });
    for (const offset of [100, 200, 300, 400]) fake.serve(`${key('A44', EIC.ES, EIC.ES)}#${offset}`, { body: same });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2024-01-01', '2024-04-20', { zones: ['ES'] });
    expect(s).toMatchObject({ planned: 1, completed: 0, rows: 0, requests: 2, fatal: null });
    expect(s.failed[0]?.error).toMatch(/offset=100: the platform repeated the page at offset 0 \(offset ignored\)/);
    expect(fake.requests.map((r) => r.params.offset)).toEqual([undefined, '100']);
    expect(await count(db, 'price_point', 'ES')).toBe(0);
    const windows = await rows<{ status: string }>(db, `SELECT status::text AS status FROM ingestion_window`);
    expect(windows).toEqual([{ status: 'failed' }]);
  });
});

describe('follow mode', () => {
  it('fetches only what is not settled yet at each cycle, until stopped', async ({ db, upstream: fake }) => {
    const controller = new AbortController();
    const clock = [new Date('2025-10-01T10:00Z'), new Date('2025-10-01T12:00Z')];
    let cycle = 0;
    const { client } = fakeClient(fake);
    const cycles = await follow({
      now: () => clock[Math.min(cycle, 1)]!,
      lookbackDays: 2,
      signal: controller.signal,
      sleep: async () => {
        cycle++;
        if (cycle === 2) controller.abort();
      },
      runOnce: (range) =>
        runIngest({
          db: db,
          client,
          ...range,
          what: ['prices'],
          zones: ['ES'],
          now: () => clock[Math.min(cycle, 1)]!,
        }),
    });
    expect(cycles).toBe(2);
    expect(fake.requests.map((r) => [r.params.periodStart, r.params.periodEnd])).toEqual([
      ['202509290000', '202510030000'],
      ['202510011000', '202510030000'],
    ]);
    expect(await count(db, 'price_point', 'ES')).toBe(240);
  });
});
