import { describe, expect } from 'vitest';
import { refreshPriceDaily } from '../../src/repositories/prices/rollup.js';
import { graphql } from '../gql/index.js';
import { WIRE } from './parity-wire.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/**
 * A small hand-computed data set on Wednesday 2025-10-01 (Berlin and Amsterdam UTC+2, Paris too):
 * DE_LU switches from hourly to 15-minute prices at 07:00Z, as the day-ahead market did that day;
 * NL has quarter-hours across the end of peak (19:45 local is peak, 20:00 is not); FR hourly only.
 */
const POINTS: [zone: string, ts: string, minutes: number, price: number, interpolated: boolean][] = [
  ['DE_LU', '2025-10-01T05:00:00Z', 60, 40, false],
  ['DE_LU', '2025-10-01T06:00:00Z', 60, -10, false],
  ...[20, 100, 30, 50].map((p, i): [string, string, number, number, boolean] => [
    'DE_LU',
    `2025-10-01T07:${String(15 * i).padStart(2, '0')}:00Z`,
    15,
    p,
    p === 100,
  ]),
  ...[60, 60, 200, -40].map((p, i): [string, string, number, number, boolean] => [
    'DE_LU',
    `2025-10-01T08:${String(15 * i).padStart(2, '0')}:00Z`,
    15,
    p,
    false,
  ]),
  ['NL', '2025-10-01T17:30:00Z', 15, 10, false],
  ['NL', '2025-10-01T17:45:00Z', 15, 20, false],
  ['NL', '2025-10-01T18:00:00Z', 15, 30, false],
  ['NL', '2025-10-01T18:15:00Z', 15, 40, false],
  ...[50, 10, -5, 30, 20].map((p, i): [string, string, number, number, boolean] => [
    'FR',
    `2025-10-01T${String(4 + i).padStart(2, '0')}:00:00Z`,
    60,
    p,
    false,
  ]),
];

const RANGE = { datetime_from: '2025-10-01T00:00:00Z', datetime_to: '2025-10-02T00:00:00Z' };

/**
 * DE_LU by hand. Hourly means: 05h 40, 06h -10, 07h (20+100+30+50)/4 = 50, 08h (60+60+200-40)/4 = 70.
 * Native: 16 quarter-hour samples (an hourly price counts four times), sorted
 * -40 | -10 x4 | 20 | 30 | 40 x4 | 50 | 60 x2 | 100 | 200, positions 0..15.
 */
const DE_LU = {
  hourly: {
    bidding_zone: 'DE_LU',
    mean_price: 37.5,
    min_price: -10,
    max_price: 70,
    // sqrt(((2.5)^2 + (47.5)^2 + (12.5)^2 + (32.5)^2) / 4)
    std_price: 29.4746,
    // percentile_cont over [-10, 40, 50, 70]: 0.05*3 = 0.15 -> -10 + 0.15*50; 1.5 -> 45; 2.85 -> 50 + 0.85*20
    p05_price: -2.5,
    median_price: 45,
    p95_price: 67,
    peak_mean_price: 36.6667,
    offpeak_mean_price: 40,
    negative_hours: 1,
    hours: 4,
    interpolated_hours: 1,
    series_zones: ['DE_LU'],
  },
  native: {
    bidding_zone: 'DE_LU',
    // (40*60 - 10*60 + 15*480) / 240
    mean_price: 37.5,
    min_price: -40,
    max_price: 200,
    // sqrt(703500 / 240): minute-weighted squared deviations from 37.5
    std_price: 54.141,
    // 0.05*15 = 0.75: -40 + 0.75*(-10 - -40); 7.5: positions 7 and 8 both 40; 14.25: 100 + 0.25*100
    p05_price: -17.5,
    median_price: 40,
    p95_price: 125,
    // peak from 06:00Z (08:00 local): (-600 + 15*480) / 180
    peak_mean_price: 36.6667,
    offpeak_mean_price: 40,
    // -10 for 60 minutes, -40 for 15
    negative_hours: 1.25,
    hours: 4,
    interpolated_hours: 0.25,
    series_zones: ['DE_LU'],
  },
};

const KpisQuery = graphql(`
  query BasisKpis($from: String, $to: String, $zones: [String!], $basis: PriceBasis) {
    priceKpis(from: $from, to: $to, zones: $zones, basis: $basis) {
      rows {
        biddingZone zone { code } meanPrice minPrice maxPrice stdPrice p05Price medianPrice p95Price
        peakMeanPrice offpeakMeanPrice negativeHours hours interpolatedHours seriesZones
      }
    }
  }
`);

describe.each(TEST_BACKENDS)('price KPIs on the hourly and the native basis on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  const t = blockApp(it);
  const loaded = blockSetup();
  it.beforeEach(
    () =>
      loaded.run(async () => {
        const values = POINTS.map(([z, ts, m, p, i]) => `('${z}', '${ts}', ${m}, ${p}, ${i})`);
        await t.db.execScript(`
          INSERT INTO price_point (zone_id, ts, period_minutes, price_eur_mwh, interpolated, source)
          SELECT z.id, v.ts::timestamptz, v.minutes, v.price, v.interpolated, 'demo'
          FROM (VALUES ${values.join(',')}) AS v(code, ts, minutes, price, interpolated) JOIN zone z ON z.code = v.code`);
        await refreshPriceDaily(t.db, { from: new Date(RANGE.datetime_from), to: new Date(RANGE.datetime_to) });
      }),
    120_000,
  );

  async function kpis(params: Record<string, string>): Promise<Record<string, unknown>[]> {
    const res = await t.get(`/api/v1/price-kpis?${new URLSearchParams({ ...RANGE, ...params })}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Record<string, unknown>[] }).data;
  }

  it('takes the hourly means by default, as basis=hourly does', async () => {
    const [byDefault, hourly] = [await kpis({ zone: 'DE_LU' }), await kpis({ zone: 'DE_LU', basis: 'hourly' })];
    expect(hourly).toEqual([DE_LU.hourly]);
    expect(byDefault).toEqual(hourly);
  });

  it('takes the published periods weighted by duration on basis=native: real extremes, weighted percentiles, hours as durations', async () => {
    const [native] = await kpis({ zone: 'DE_LU', basis: 'native' });
    expect(native).toEqual(DE_LU.native);
    expect(native!.max_price as number).toBeGreaterThan(DE_LU.hourly.max_price);
  });

  it('counts hours as the duration of the periods in the range on the native basis, whole hours on the hourly', async () => {
    const cut = { datetime_from: '2025-10-01T05:00:00Z', datetime_to: '2025-10-01T08:30:00Z', zone: 'DE_LU' };
    const [native] = await kpis({ ...cut, basis: 'native' });
    const [hourly] = await kpis(cut);
    expect([native!.hours, hourly!.hours]).toEqual([3.5, 4]);
    // native: 60 + 60 + 8 x 15 minutes without the last two: max over 40, -10, 20, 100, 30, 50, 60, 60
    expect([native!.max_price, native!.min_price]).toEqual([100, -10]);
  });

  it('sorts periods into peak and off-peak by their start in zone local time (19:45 is peak, 20:00 is not)', async () => {
    const [nl] = await kpis({ zone: 'NL', basis: 'native' });
    expect(nl).toMatchObject({ peak_mean_price: 15, offpeak_mean_price: 35, hours: 1, median_price: 25 });
  });

  it('gives the hourly figures on the native basis when every period is an hour', async () => {
    const [native] = await kpis({ zone: 'FR', basis: 'native' });
    const [hourly] = await kpis({ zone: 'FR', basis: 'hourly' });
    expect(native).toEqual(hourly);
    // [-5, 10, 20, 30, 50]: 0.05*4 = 0.2 -> -5 + 0.2*15; median 20; 3.8 -> 30 + 0.8*20
    expect(native).toMatchObject({ p05_price: -2, median_price: 20, p95_price: 46, hours: 5, negative_hours: 1 });
  });

  it('rejects an unknown basis with a 422 naming the parameter', async () => {
    const res = await t.get(`/api/v1/price-kpis?${new URLSearchParams({ ...RANGE, basis: 'foo' })}`);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[]; type: string; input: unknown; msg: string }[] };
    expect(body.detail).toEqual([
      { loc: ['query', 'basis'], type: 'enum', input: 'foo', msg: "Input should be 'hourly' or 'native'" },
    ]);
  });

  it('answers on GraphQL what REST answers, on both bases', async () => {
    const zones = ['DE_LU', 'NL', 'FR'];
    for (const [basis, rest] of [
      ['HOURLY', 'hourly'],
      ['NATIVE', 'native'],
    ] as const) {
      const res = await t.graphql(KpisQuery, { from: RANGE.datetime_from, to: RANGE.datetime_to, zones, basis });
      expect(res.errors).toBeUndefined();
      const qs = new URLSearchParams({ ...RANGE, basis: rest });
      for (const zone of zones) qs.append('zone', zone);
      const wire = ((await (await t.get(`/api/v1/price-kpis?${qs}`)).json()) as { data: unknown[] }).data;
      expect(wire.length).toBe(3);
      expect(res.data!.priceKpis.rows.map(WIRE.priceKpis), basis).toEqual(wire);
    }
  });

  it('rejects an unknown basis on GraphQL as an invalid enum value', async () => {
    const res = await t.get('/graphql?query=%7BpriceKpis(basis%3AWEEKLY)%7Brows%7Bhours%7D%7D%7D');
    const body = (await res.json()) as { errors?: { message: string }[] };
    expect(body.errors?.[0]?.message).toMatch(/PriceBasis/);
  });
});
