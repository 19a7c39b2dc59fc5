/**
 * End to end for flows: the job ingests physical flows (A11), scheduled exchanges (A09) and prices
 * of one border from the fake upstream, and /api/v1/flows then serves the classified hours: the
 * physical flow where it was measured, the schedule standing in (provenance `derived`) where it was
 * not, each flagged interpolated when the value served fills a gap upstream.
 * DK_2->SE_4: real A09 (A05 position 1 = 1264 MW, second day position 1 = 1301 MW, DK2 -> SE4) and
 * a synthetic A11 for the first day only. EE->FI: HANDMADE A09 with a 2-hour gap, no A11 at all.
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { findFlowRows } from '../../src/repositories/flows/read-rows.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { blockSetup, upstreamTest as it } from '../support/fixtures.js';
import { type FakeUpstream, fixture } from './fake-upstream.js';
import { a11, a44, EIC, fakeClient, ingest, key, rows } from './helpers.js';

const DAY1 = '2023-12-20T23:00Z';

describe.each(TEST_BACKENDS)('ingested flows served by /api/v1/flows on %s', (kind) => {
  let db!: Database;
  let fake: FakeUpstream;
  let app: App;
  const get = async (path: string) => (await (await app.yoga.fetch(new URL(path, 'http://test'), {})).json()) as any;
  const flows = (border: string, query: string) => get(`/api/v1/flows?border=${encodeURIComponent(border)}&${query}`);

  it.override({ backend: kind, seed: 'empty' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb, fileUpstream }) =>
    block.run(async () => {
      db = fileDb;
      fake = fileUpstream;
      // DK_2 -> SE_4: physical 600 MW DK2 -> SE4 for 12 hours, then 300 MW SE4 -> DK2 for 12 hours; no A11 after.
      fake.serve(key('A11', EIC.SE_4, EIC.DK_2), {
        body: a11(EIC.DK_2, EIC.SE_4, DAY1, [...Array(12).fill(600), ...Array(12).fill(0)]),
      });
      fake.serve(key('A11', EIC.DK_2, EIC.SE_4), {
        body: a11(EIC.SE_4, EIC.DK_2, DAY1, [...Array(12).fill(0), ...Array(12).fill(300)]),
      });
      fake.serve(key('A09', EIC.SE_4, EIC.DK_2), { body: fixture('A09_in-SE4_out-DK2_2023-12-21_24_PT60M.xml') });
      fake.serve(key('A44', EIC.DK_2, EIC.DK_2), { body: a44(EIC.DK_2, DAY1, Array(96).fill(50)) });
      fake.serve(key('A44', EIC.SE_4, EIC.SE_4), {
        body: a44(EIC.SE_4, DAY1, [...Array(24).fill(80), ...Array(72).fill(20)]),
      });
      // EE -> FI: schedules only (the A11 requests get "No matching data"), EE 40 and FI 60 EUR/MWh.
      fake.serve(key('A09', EIC.FI, EIC.EE), {
        body: fixture('HANDMADE_A09_in-FI_out-EE_2024-03-24_PT60M_A05_gap_2h.xml'),
      });
      fake.serve(key('A44', EIC.EE, EIC.EE), { body: a44(EIC.EE, '2024-03-23T23:00Z', Array(24).fill(40)) });
      fake.serve(key('A44', EIC.FI, EIC.FI), { body: a44(EIC.FI, '2024-03-23T23:00Z', Array(24).fill(60)) });
      const { client } = fakeClient(fake);
      const what = ['flows', 'schedules', 'prices'] as const;
      const dk = await ingest(db, client, '2023-12-21', '2023-12-25', { what: [...what], borders: ['DK_2->SE_4'] });
      const ee = await ingest(db, client, '2024-03-24', '2024-03-25', { what: [...what], borders: ['EE->FI'] });
      expect([dk.failed, ee.failed]).toEqual([[], []]);
      app = await createApp({ config: testConfig(), db, now: () => Date.parse('2024-06-01T00:00:00Z') });
    }),
  );

  it('serves the measured physical flow, in its own direction, where the A11 has the hour', async () => {
    const body = await flows(
      'DK_2->SE_4',
      'datetime_from=2023-12-20T23:00&datetime_to=2023-12-21T23:00&resolution=native',
    );
    expect(body.meta).toMatchObject({
      provenance: 'measured',
      upstream_sources: ['ENTSO-E Transparency Platform'],
      resolution: 'native',
    });
    expect(body.data).toHaveLength(24);
    // 50 -> 80 EUR/MWh: towards the higher price, no NTC published: convergence.
    expect(body.data[0]).toEqual({
      datetime: '2023-12-20T23:00:00Z',
      bidding_zone_from: 'DK_2',
      bidding_zone_to: 'SE_4',
      flow_type: 'convergence',
      flow_interpolated: false,
      net_flow_mw: 600,
      price_from: 50,
      price_to: 80,
      price_delta: 30,
      capacity_mw: null,
      hours: 1,
    });
    // The schedule says 1264-ish MW DK2 -> SE4, the measured flow is 300 MW the other way: the measurement wins.
    expect(body.data[12]).toMatchObject({
      datetime: '2023-12-21T11:00:00Z',
      bidding_zone_from: 'SE_4',
      bidding_zone_to: 'DK_2',
      flow_type: 'counter_intuitive',
      net_flow_mw: 300,
      price_from: 80,
      price_to: 50,
    });
  });

  it('serves the scheduled exchange with provenance derived where only the schedule exists', async () => {
    const body = await flows(
      'DK_2->SE_4',
      'datetime_from=2023-12-21T23:00&datetime_to=2023-12-22T23:00&resolution=native',
    );
    expect(body.meta).toMatchObject({ provenance: 'derived', upstream_sources: ['ENTSO-E Transparency Platform'] });
    expect(body.data).toHaveLength(24);
    // 1301 MW DK2 -> SE4 while SE_4 (20) is cheaper than DK_2 (50): against the price signal.
    expect(body.data[0]).toMatchObject({
      datetime: '2023-12-21T23:00:00Z',
      bidding_zone_from: 'DK_2',
      bidding_zone_to: 'SE_4',
      flow_type: 'counter_intuitive',
      flow_interpolated: false,
      net_flow_mw: 1301,
      price_from: 50,
      price_to: 20,
    });
    const mixed = await flows(
      'DK_2->SE_4',
      'datetime_from=2023-12-20T23:00&datetime_to=2023-12-22T23:00&resolution=native',
    );
    expect(mixed.meta).toMatchObject({ provenance: 'derived', pagination: expect.objectContaining({ total: 48 }) });
  });

  it('flags a derived flow interpolated where the schedule standing in fills a gap (no A11 at all)', async () => {
    const body = await flows('EE->FI', 'datetime_from=2024-03-23T23:00&datetime_to=2024-03-24T23:00&resolution=native');
    expect(body.meta).toMatchObject({ provenance: 'derived', upstream_sources: ['ENTSO-E Transparency Platform'] });
    expect(body.data).toHaveLength(24);
    expect(body.data.every((r: any) => r.bidding_zone_from === 'EE' && r.flow_type === 'convergence')).toBe(true);
    const flagged = body.data.filter((r: any) => r.flow_interpolated).map((r: any) => [r.datetime, r.net_flow_mw]);
    expect(flagged).toEqual([
      ['2024-03-24T08:00:00Z', 400],
      ['2024-03-24T09:00:00Z', 500],
    ]);
    const stored = await rows<{ n: number }>(
      db,
      'SELECT count(*)::int AS n FROM border_hour WHERE scheduled_interpolated AND physical_ab_mw IS NULL AND physical_ba_mw IS NULL',
    );
    expect(stored[0]!.n).toBe(2);
  });

  it('carries the flag into daily buckets and the scheduled basis', async () => {
    const daily = await flows('EE->FI', 'datetime_from=2024-03-23&datetime_to=2024-03-25&resolution=1D');
    expect(daily.data.map((r: any) => [r.datetime, r.hours, r.flow_interpolated])).toEqual([
      ['2024-03-23T00:00:00Z', 1, false],
      ['2024-03-24T00:00:00Z', 23, true],
    ]);
    const borders = await rows<{ id: number }>(
      db,
      `SELECT b.id FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id WHERE za.code = 'EE' AND zb.code = 'FI'`,
    );
    const scheduled = await findFlowRows(db, {
      from: new Date('2024-03-24T07:00Z'),
      to: new Date('2024-03-24T11:00Z'),
      borderIds: borders.map((b) => b.id),
      flowTypes: [],
      resolution: 'native',
      basis: 'scheduled',
    });
    expect(scheduled.map((r) => r.flowInterpolated)).toEqual([false, true, true, false]);
  });
});
