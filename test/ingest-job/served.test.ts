/**
 * End to end: the ingestion job fills an empty database from the fake upstream, and /api/v1 then
 * serves exactly those values, labelled as ENTSO-E data. Values read by hand from
 * test/fixtures/entsoe/A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml.
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { TEST_BACKENDS } from '../support/db.js';
import { blockSetup, upstreamTest as it } from '../support/fixtures.js';
import { fixture } from './fake-upstream.js';
import { EIC, fakeClient, ingest, key } from './helpers.js';

describe.each(TEST_BACKENDS)('ingested ES prices served by /api/v1 on %s', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  const app = blockSetup<App>((app) => app?.close());
  it.beforeEach(({ fileDb: db, fileUpstream: fake }) =>
    app.run(async () => {
      fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture('A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml') });
      const { client } = fakeClient(fake);
      await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
      return createApp({ config: testConfig(), db, now: () => Date.parse('2025-10-03T00:00:00Z') });
    }),
  );
  const get = async (path: string) =>
    (await (await app.value.yoga.fetch(new URL(path, 'http://test'), {})).json()) as any;

  it('serves the upstream values at native resolution, hourly then 15-minute, as ENTSO-E data', async () => {
    const body = await get(
      '/api/v1/prices?zone=ES&datetime_from=2025-09-30T21:00&datetime_to=2025-10-01T01:00&resolution=native',
    );
    expect(body.meta).toMatchObject({
      provenance: 'measured',
      upstream_sources: ['ENTSO-E Transparency Platform'],
      resolution: 'native',
    });
    expect(body.data).toHaveLength(1 + 12);
    expect(body.data[0]).toEqual({
      datetime: '2025-09-30T21:00:00Z',
      bidding_zone: 'ES',
      price_mwh: 101.5,
      interpolated: false,
      year: 2025,
    });
    expect(body.data[1]).toMatchObject({ datetime: '2025-09-30T22:00:00Z', price_mwh: 105.1 });
    const at = (ts: string) => body.data.find((r: any) => r.datetime === ts);
    expect(at('2025-10-01T00:30:00Z').price_mwh).toBe(100);
    expect(at('2025-10-01T00:45:00Z').price_mwh).toBe(100);
  });

  it('serves hourly means equal to the mean of the served quarter-hours', async () => {
    const native = (
      await get('/api/v1/prices?zone=ES&datetime_from=2025-10-01T00:00&datetime_to=2025-10-01T01:00&resolution=native')
    ).data;
    const hourly = (await get('/api/v1/prices?zone=ES&datetime_from=2025-10-01&datetime_to=2025-10-02&resolution=1H'))
      .data;
    expect(native).toHaveLength(4);
    expect(hourly).toHaveLength(24);
    expect(hourly[0].price_mwh).toBeCloseTo(native.reduce((s: number, r: any) => s + r.price_mwh, 0) / 4, 4);
  });
});
