import { tableFromIPC } from 'apache-arrow';
import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';

/** Hourly DE_LU prices across the 2025/2026 new year, in UTC: 23:00 UTC on 31 December is already 2026 in Berlin (00:00 local). */
const HOURS = ['2025-12-31T21:00:00Z', '2025-12-31T22:00:00Z', '2025-12-31T23:00:00Z', '2026-01-01T00:00:00Z'];
const QUERY = 'zone=DE_LU&datetime_from=2025-12-31T21:00:00Z&datetime_to=2026-01-01T01:00:00Z&resolution=native';

/** The calendar year of an instant in a zone, read with Intl (independent of the API). */
const yearIn = (iso: string, tz: string): number =>
  Number(new Intl.DateTimeFormat('en-GB', { timeZone: tz, year: 'numeric' }).format(new Date(iso)));

describe('price row year under a time zone', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it);
  const loaded = blockSetup();
  it.beforeEach(
    () =>
      loaded.run(async () => {
        const values = HOURS.map((ts, i) => `('${ts}', ${50 + i})`).join(',');
        await t.db.execScript(`
          INSERT INTO price_point (zone_id, ts, period_minutes, price_eur_mwh, interpolated, source)
          SELECT z.id, v.ts::timestamptz, 60, v.price, false, 'demo'
          FROM (VALUES ${values}) AS v(ts, price) CROSS JOIN zone z WHERE z.code = 'DE_LU'`);
      }),
    120_000,
  );

  it('is the local calendar year of the row in JSON: 2026 from 23:00 UTC on 31 December under Europe/Berlin', async () => {
    const res = await t.get(`/api/v1/prices?${QUERY}&tz=Europe/Berlin`);
    const body = (await res.json()) as { data: { datetime: string; year: number }[] };
    expect(body.data.map((r) => r.year)).toEqual(HOURS.map((h) => yearIn(h, 'Europe/Berlin')));
    expect(body.data.map((r) => r.year)).toEqual([2025, 2025, 2026, 2026]);
    expect(body.data.map((r) => r.datetime.slice(0, 4))).toEqual(body.data.map((r) => String(r.year)));
  });

  it('stays the UTC year without tz', async () => {
    const body = (await (await t.get(`/api/v1/prices?${QUERY}`)).json()) as { data: { year: number }[] };
    expect(body.data.map((r) => r.year)).toEqual([2025, 2025, 2025, 2026]);
  });

  it('is the same local year in CSV and Arrow', async () => {
    const csv = await (await t.get(`/api/v1/prices?${QUERY}&tz=Europe/Berlin&format=csv`)).text();
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    const at = header!.split(',').indexOf('year');
    expect(lines.map((l) => Number(l.split(',')[at]))).toEqual([2025, 2025, 2026, 2026]);
    const arrow = tableFromIPC(
      new Uint8Array(await (await t.get(`/api/v1/prices?${QUERY}&tz=Europe/Berlin&format=arrow`)).arrayBuffer()),
    );
    expect([...arrow.getChild('year')!].map(Number)).toEqual([2025, 2025, 2026, 2026]);
  });

  it('is the local year in GraphQL under timeZone, the UTC year without', async () => {
    const ask = async (timeZone?: string) => {
      const query = `{ prices(zones: ["DE_LU"], from: "2025-12-31T21:00:00Z", to: "2026-01-01T01:00:00Z", resolution: NATIVE${timeZone ? `, timeZone: "${timeZone}"` : ''}) { edges { node { year } } } }`;
      const res = await t.get('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      const body = (await res.json()) as { data: { prices: { edges: { node: { year: number } }[] } } };
      return body.data.prices.edges.map((e) => e.node.year);
    };
    expect(await ask('Europe/Berlin')).toEqual([2025, 2025, 2026, 2026]);
    expect(await ask()).toEqual([2025, 2025, 2025, 2026]);
  });
});
