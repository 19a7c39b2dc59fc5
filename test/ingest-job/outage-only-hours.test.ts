/**
 * Hours covered by an outage with nothing else published: the real A78 of BE->NL (planned works on
 * 'AVLGM380 101 HORTA', 2020-10-15T05:30Z..2020-12-16T14:30Z, fixture
 * A78_OUTAGES_A78_202011180000-202011190000.zip) ingested over two UTC days for which no flow,
 * schedule, NTC or price was published. Every hour becomes an `outage` row on both bases, served
 * by /api/v1/flows and counted by the daily summary (100 % outage on each day).
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { blockSetup, upstreamTest as it } from '../support/fixtures.js';
import { type FakeUpstream, fixture } from './fake-upstream.js';
import { EIC, fakeClient, ingest, iso, key, rows } from './helpers.js';

const hoursFrom = (start: string, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(start) + i * 3_600_000).toISOString());

describe.each(TEST_BACKENDS)('outage-only hours on %s', (kind) => {
  let db!: Database;
  let fake: FakeUpstream;
  let app: App;
  const get = async (path: string) => (await (await app.yoga.fetch(new URL(path, 'http://test'), {})).json()) as any;
  const range = 'datetime_from=2020-11-18T00:00Z&datetime_to=2020-11-20T00:00Z';

  it.override({ backend: kind, seed: 'empty' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb, fileUpstream }) =>
    block.run(async () => {
      db = fileDb;
      fake = fileUpstream;
      fake.serve(key('A78', EIC.NL, EIC.BE), { body: fixture('A78_OUTAGES_A78_202011180000-202011190000.zip') });
      const { client } = fakeClient(fake);
      const s = await ingest(db, client, '2020-11-18', '2020-11-20', { what: ['outages'], borders: ['BE->NL'] });
      expect(s).toMatchObject({ failed: [], fatal: null });
      app = await createApp({ config: testConfig(), db, now: () => Date.parse('2021-01-01T00:00:00Z') });
    }),
  );

  it('stores one row per hour of the two days, outage on both bases, with no facts', async () => {
    const stored = await rows<Record<string, unknown>>(
      db,
      `SELECT h.ts, h.flow_type::text AS flow_type, h.scheduled_flow_type::text AS scheduled_flow_type,
              h.export_from_a, h.net_flow_mw, h.physical_ab_mw, h.physical_ba_mw, h.scheduled_ab_mw,
              h.scheduled_ba_mw, h.ntc_ab_mw, h.ntc_ba_mw, h.flow_derived
       FROM border_hour h JOIN border b ON b.id = h.border_id JOIN zone za ON za.id = b.zone_a_id
       JOIN zone zb ON zb.id = b.zone_b_id WHERE za.code = 'BE' AND zb.code = 'NL' ORDER BY h.ts`,
    );
    expect(stored.map((r) => iso(r.ts))).toEqual(hoursFrom('2020-11-18T00:00:00Z', 48));
    for (const r of stored) {
      expect(r).toMatchObject({
        flow_type: 'outage',
        scheduled_flow_type: 'outage',
        export_from_a: null,
        net_flow_mw: null,
        physical_ab_mw: null,
        physical_ba_mw: null,
        scheduled_ab_mw: null,
        scheduled_ba_mw: null,
        ntc_ab_mw: null,
        ntc_ba_mw: null,
        flow_derived: false,
      });
    }
  });

  it.each(['physical', 'scheduled'])('serves every hour as an outage on the %s basis', async (basis) => {
    const body = await get(`/api/v1/flows?border=BE-%3ENL&${range}&resolution=native&basis=${basis}`);
    expect(body.data.map((r: { datetime: string }) => r.datetime)).toEqual(
      hoursFrom('2020-11-18T00:00:00Z', 48).map((ts) => ts.replace('.000Z', 'Z')),
    );
    expect(new Set(body.data.map((r: { flow_type: string }) => r.flow_type))).toEqual(new Set(['outage']));
    // The REST row's net_flow_mw is a number: no flow published reads 0 MW (the stored value is null).
    expect(body.data[0]).toEqual({
      datetime: '2020-11-18T00:00:00Z',
      bidding_zone_from: 'BE',
      bidding_zone_to: 'NL',
      flow_type: 'outage',
      flow_interpolated: false,
      net_flow_mw: 0,
      price_from: null,
      price_to: null,
      price_delta: null,
      capacity_mw: null,
      hours: 1,
    });
  });

  it('counts each day as 100 % outage in the daily summary', async () => {
    const body = await get(`/api/v1/flow-type-summary?border=BE-%3ENL&${range}`);
    expect(
      body.data.map((r: Record<string, unknown>) => [
        r.day,
        r.convergence,
        r.congestion,
        r.counter_intuitive,
        r.outage,
      ]),
    ).toEqual([
      ['2020-11-18', 0, 0, 0, 100],
      ['2020-11-19', 0, 0, 0, 100],
    ]);
  });
});
