/**
 * The example, `--from 2025-09-29 --to 2025-10-03 --zones ES --what prices`, against the fake
 * upstream serving the real ES reply: the database holds exactly what the upstream sent.
 * Expected values read by hand from test/fixtures/entsoe/A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml.
 */
import { describe, expect } from 'vitest';
import { TEST_BACKENDS } from '../support/db.js';
import { upstreamTest as it } from '../support/fixtures.js';
import { fixture } from './fake-upstream.js';
import { EIC, fakeClient, ingest, iso, key, rows } from './helpers.js';

const ES_REPLY = 'A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml';

describe.each(TEST_BACKENDS)('ES day-ahead prices on %s', (backend) => {
  it.override({ backend });
  it.beforeEach(({ fileUpstream }) => fileUpstream.serve(key('A44', EIC.ES, EIC.ES), { body: fixture(ES_REPLY) }));

  it('sends one A44 request with the platform parameter names', async ({ fileDb: db, fileUpstream: fake }) => {
    const { client } = fakeClient(fake);
    const summary = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    expect(summary).toMatchObject({
      planned: 1,
      completed: 1,
      rows: 240,
      failed: [],
      interrupted: false,
      fatal: null,
      requests: 1,
    });
    expect(fake.requests.map((r) => r.params)).toEqual([
      {
        documentType: 'A44',
        'contract_MarketAgreement.type': 'A01',
        in_Domain: EIC.ES,
        out_Domain: EIC.ES,
        periodStart: '202509290000',
        periodEnd: '202510030000',
      },
    ]);
  });

  it('stores every period the upstream sent: hourly until 30 Sep 22:00Z, 15-minute after', async ({ fileDb: db }) => {
    const stored = await rows<{
      ts: Date;
      period_minutes: number;
      price_eur_mwh: number;
      interpolated: boolean;
      source: string;
    }>(
      db,
      `SELECT p.ts, p.period_minutes, p.price_eur_mwh, p.interpolated, p.source::text AS source
       FROM price_point p JOIN zone z ON z.id = p.zone_id WHERE z.code = 'ES' ORDER BY p.ts`,
    );
    expect(stored).toHaveLength(240); // 24 + 24 hourly, 2 x 96 quarter-hours (A03 omissions carry the previous value)
    expect(stored.filter((r) => r.period_minutes === 60)).toHaveLength(48);
    expect(stored.filter((r) => r.period_minutes === 15)).toHaveLength(192);
    expect(new Set(stored.map((r) => r.source))).toEqual(new Set(['entsoe']));
    expect(stored.some((r) => r.interpolated)).toBe(false);
    const at = (ts: string) => stored.find((r) => iso(r.ts) === ts);
    expect(iso(stored[0]!.ts)).toBe('2025-09-28T22:00:00.000Z');
    expect(at('2025-09-28T22:00:00.000Z')).toMatchObject({ period_minutes: 60, price_eur_mwh: 51.6 });
    expect(at('2025-09-29T22:00:00.000Z')).toMatchObject({ period_minutes: 60, price_eur_mwh: 95.46 });
    expect(at('2025-09-30T21:00:00.000Z')).toMatchObject({ period_minutes: 60, price_eur_mwh: 101.5 });
    expect(at('2025-09-30T22:00:00.000Z')).toMatchObject({ period_minutes: 15, price_eur_mwh: 105.1 });
    expect(at('2025-10-01T00:30:00.000Z')).toMatchObject({ price_eur_mwh: 100 }); // position 11
    expect(at('2025-10-01T00:45:00.000Z')).toMatchObject({ price_eur_mwh: 100 }); // position 12 omitted (A03)
    expect(iso(stored.at(-1)!.ts)).toBe('2025-10-02T21:45:00.000Z');
    expect(stored.at(-1)!.price_eur_mwh).toBe(103.27);
  });

  it('keeps the daily rollup in step in the same transaction', async ({ fileDb: db }) => {
    const days = await rows<{ day: string; minutes: number; weighted_sum: number; sources: string }>(
      db,
      `SELECT d.day::text AS day, d.minutes, d.weighted_sum, array_to_string(d.sources, ',') AS sources
       FROM price_daily d JOIN zone z ON z.id = d.zone_id WHERE z.code = 'ES' ORDER BY d.day`,
    );
    expect(days.map((d) => [d.day, d.minutes])).toEqual([
      ['2025-09-28', 120],
      ['2025-09-29', 1440],
      ['2025-09-30', 1440],
      ['2025-10-01', 1440],
      ['2025-10-02', 1320],
    ]);
    expect(days[0]!.weighted_sum).toBeCloseTo((51.6 + 47.7) * 60, 6);
    expect(days.every((d) => d.sources === 'entsoe')).toBe(true);
  });

  it('records the run and the window, then skips the done window on a re-run', async ({
    fileDb: db,
    fileUpstream: fake,
  }) => {
    const windows = await rows<{
      item: string;
      area_key: string;
      status: string;
      rows: number;
      window_start: Date;
      window_end: Date;
    }>(db, `SELECT item, area_key, status::text AS status, rows, window_start, window_end FROM ingestion_window`);
    expect(windows).toEqual([expect.objectContaining({ item: 'prices', area_key: 'ES', status: 'done', rows: 240 })]);
    expect(iso(windows[0]!.window_start)).toBe('2025-09-29T00:00:00.000Z');
    const before = fake.requests.length;
    const { client } = fakeClient(fake);
    const again = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    expect(again).toMatchObject({ planned: 0, completed: 0, requests: 0 });
    expect(fake.requests.length).toBe(before);
    const runs = await rows<{ status: string; args: { zones: string[] } | string }>(
      db,
      `SELECT status::text AS status, args FROM ingestion_run ORDER BY id`,
    );
    expect(runs.map((r) => r.status)).toEqual(['done', 'done']);
  });

  it('fetches only the part of a wider range that no run finished', async ({ fileDb: db, fileUpstream: fake }) => {
    const { client } = fakeClient(fake);
    const before = fake.requests.length;
    const summary = await ingest(db, client, '2025-09-27', '2025-10-03', { zones: ['ES'] });
    expect(summary.planned).toBe(1);
    const sent = fake.requests.slice(before).map((r) => [r.params.periodStart, r.params.periodEnd]);
    expect(sent).toEqual([['202509270000', '202509290000']]);
    const count = await rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM price_point`);
    expect(count[0]!.n).toBe(240); // the same document again: upserted, nothing duplicated
  });
});
