import { describe, expect } from 'vitest';
import { DAY_MS as DAY, HOUR_MS as HOUR, isoWeekStart as isoWeekOf } from '../../src/domain/calendar.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

interface PriceRow {
  datetime: string;
  bidding_zone: string;
  price_mwh: number;
  interpolated: boolean;
}

/** Zones with interpolated native prices in the window: SE_2 in both eras, ES hourly, DE_LU quarter-hourly. */
const ZONES = ['DE_LU', 'ES', 'SE_2'];
/** 14 days (the 1H cap) around the 2025-10-01 switch from hourly to 15-minute periods. */
const FROM = Date.UTC(2025, 8, 22);
const TO = Date.UTC(2025, 9, 6);
const SWITCH = Date.UTC(2025, 9, 1);
/** Half a unit of the 0.0001 EUR/MWh rounding, and float noise. */
const TOLERANCE = 0.00005 + 1e-9;

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const minutesOf = (ms: number) => (ms >= SWITCH ? 15 : 60);
const hourOf = (ms: number) => Math.floor(ms / HOUR) * HOUR;
const dayOf = (ms: number) => Math.floor(ms / DAY) * DAY;

interface Expected {
  price: number;
  interpolated: boolean;
}

/** Time-weighted means of native rows per zone and bucket, keyed `zone|bucket start ms`. */
function weightedMeans(rows: readonly PriceRow[], bucketOf: (ms: number) => number): Map<string, Expected> {
  const sums = new Map<string, { weighted: number; minutes: number; interpolated: boolean }>();
  for (const r of rows) {
    const ms = Date.parse(r.datetime);
    const key = `${r.bidding_zone}|${bucketOf(ms)}`;
    const s = sums.get(key) ?? { weighted: 0, minutes: 0, interpolated: false };
    s.weighted += r.price_mwh * minutesOf(ms);
    s.minutes += minutesOf(ms);
    s.interpolated ||= r.interpolated;
    sums.set(key, s);
  }
  return new Map([...sums].map(([key, s]) => [key, { price: s.weighted / s.minutes, interpolated: s.interpolated }]));
}

describe.each(TEST_BACKENDS)('aggregated demo prices are time-weighted means of the native prices on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);
  let native: PriceRow[];

  async function prices(from: number, to: number, resolution: string): Promise<PriceRow[]> {
    const qs = new URLSearchParams({ datetime_from: iso(from), datetime_to: iso(to), resolution });
    for (const z of ZONES) qs.append('zone', z);
    const res = await t.get(`/api/v1/prices?${qs}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { meta: { resolution: string }; data: PriceRow[] };
    expect(body.meta.resolution).toBe(resolution);
    return body.data;
  }

  function expectMeans(rows: readonly PriceRow[], expected: Map<string, Expected>): void {
    expect(rows.length).toBe(expected.size);
    for (const r of rows) {
      const key = `${r.bidding_zone}|${Date.parse(r.datetime)}`;
      const e = expected.get(key);
      expect(e, key).toBeDefined();
      expect(Math.abs(r.price_mwh - e!.price), `${key}: ${r.price_mwh} vs ${e!.price}`).toBeLessThanOrEqual(TOLERANCE);
      expect(r.interpolated, key).toBe(e!.interpolated);
    }
  }

  const readOnce = blockSetup();
  it.beforeEach(() =>
    readOnce.run(async () => {
      native = [];
      for (let from = FROM; from < TO; from += 2 * DAY)
        native.push(...(await prices(from, Math.min(from + 2 * DAY, TO), 'native')));
    }),
  );

  it('reads hourly native rows before the switch and quarter-hours after it, interpolated ones in both eras', () => {
    const before = native.filter((r) => Date.parse(r.datetime) < SWITCH);
    const after = native.filter((r) => Date.parse(r.datetime) >= SWITCH);
    expect(before.length).toBe(ZONES.length * 9 * 24);
    expect(after.length).toBe(ZONES.length * 5 * 96);
    expect(before.filter((r) => r.interpolated).map((r) => r.bidding_zone)).toEqual(
      expect.arrayContaining(['ES', 'SE_2']),
    );
    expect(after.filter((r) => r.interpolated).map((r) => r.bidding_zone)).toEqual(
      expect.arrayContaining(['DE_LU', 'SE_2']),
    );
  });

  it('1H prices are the means of the native prices of each UTC hour, interpolated when any of them was', async () => {
    const hourly = await prices(FROM, TO, '1H');
    const expected = weightedMeans(native, hourOf);
    expect(expected.size).toBe(ZONES.length * 14 * 24);
    expectMeans(hourly, expected);
    expect(hourly.some((r) => r.interpolated && Date.parse(r.datetime) >= SWITCH)).toBe(true);
  });

  it('1D prices are the time-weighted means of the native prices of each UTC day', async () => {
    const daily = await prices(FROM, TO, '1D');
    const expected = weightedMeans(native, dayOf);
    expect(expected.size).toBe(ZONES.length * 14);
    expectMeans(daily, expected);
  });

  it('weights hourly and quarter-hour periods by their length in the ISO week across the switch', async () => {
    const monday = Date.UTC(2025, 8, 29);
    const weekly = await prices(monday, monday + 7 * DAY, '1W');
    const inWeek = native.filter((r) => Date.parse(r.datetime) >= monday);
    const expected = weightedMeans(inWeek, isoWeekOf);
    expect(expected.size).toBe(ZONES.length);
    expectMeans(weekly, expected);
    const rowMean = (zone: string) => {
      const rows = inWeek.filter((r) => r.bidding_zone === zone);
      return rows.reduce((s, r) => s + r.price_mwh, 0) / rows.length;
    };
    for (const r of weekly)
      expect(Math.abs(r.price_mwh - rowMean(r.bidding_zone)), r.bidding_zone).toBeGreaterThan(0.01);
  });
});
