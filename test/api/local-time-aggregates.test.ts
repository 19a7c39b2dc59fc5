import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/** The test demo data holds the 2025-10-26 switch to winter time. */
const DAY = '2025-10-26';
/** Around the local day in every zone: hourly rows fetched without tz cover it. */
const AROUND = { datetime_from: '2025-10-25T12:00:00Z', datetime_to: '2025-10-27T12:00:00Z' };

const localDay = (ms: number, tz: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(ms),
  );

describe.each(TEST_BACKENDS)('daily aggregates with a time zone on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);

  async function get<R>(
    path: string,
    params: Record<string, string>,
  ): Promise<{ meta: Record<string, unknown>; data: R[] }> {
    const res = await t.get(`${path}?${new URLSearchParams(params)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { meta: Record<string, unknown>; data: R[] };
  }

  const borders = [
    ['ES->PT', 'Europe/Lisbon', 'Europe/Lisbon'],
    ['DE_LU->FR', 'local', 'Europe/Berlin'],
    ['FI->SE_1', 'local', 'Europe/Helsinki'],
  ] as const;
  for (const [border, tz, zone] of borders) {
    it(`flow-type-summary ${border}: the local day ${DAY} in ${zone} counts its 25 hourly classifications`, async () => {
      const hourly = await get<{ datetime: string; flow_type: string }>('/api/v1/flows', {
        border,
        ...AROUND,
        resolution: '1H',
      });
      const inDay = hourly.data.filter((r) => localDay(Date.parse(r.datetime), zone) === DAY);
      const count = (type: string) => inDay.filter((r) => r.flow_type === type).length;
      const summary = await get<Record<string, number | string>>('/api/v1/flow-type-summary', {
        border,
        datetime_from: DAY,
        datetime_to: '2025-10-27',
        resolution: '1D',
        tz,
      });
      expect(summary.meta.time_zone).toBe(tz);
      expect(summary.data).toHaveLength(1);
      const row = summary.data[0]!;
      expect(row.day).toBe(DAY);
      expect(row.hours).toBe(25);
      const percent = (type: string) => Math.round((1e6 * count(type)) / 25) / 1e4;
      expect([row.convergence, row.congestion, row.counter_intuitive, row.outage]).toEqual([
        percent('convergence'),
        percent('congestion'),
        percent('counter_intuitive'),
        percent('outage'),
      ]);
    });
  }

  for (const [code, zone] of [
    ['PT', 'Europe/Lisbon'],
    ['DE_LU', 'Europe/Berlin'],
    ['FI', 'Europe/Helsinki'],
  ] as const) {
    it(`ci-share ${code}: the local day ${DAY} in ${zone} sums the hourly shares of its 25 hours`, async () => {
      const hourly = await get<{ day: string; ci_hours: number; total_hours: number }>('/api/v1/ci-share', {
        zone: code,
        ...AROUND,
        resolution: '1H',
      });
      const inDay = hourly.data.filter((r) => localDay(Date.parse(r.day), zone) === DAY);
      const daily = await get<{ day: string; ci_hours: number; total_hours: number }>('/api/v1/ci-share', {
        zone: code,
        ...AROUND,
        resolution: '1D',
        tz: 'local',
      });
      const row = daily.data.find((r) => r.day.startsWith(DAY))!;
      expect(localDay(Date.parse(row.day), zone)).toBe(DAY);
      expect(row.day.slice(10, 19)).toBe('T00:00:00');
      expect(row.total_hours).toBe(inDay.reduce((n, r) => n + r.total_hours, 0));
      expect(row.total_hours).toBe(25);
      expect(row.ci_hours).toBe(inDay.reduce((n, r) => n + r.ci_hours, 0));
    });
  }

  it("ci-share under local writes each zone's rows in its own time zone; naive bounds over several zones are refused", async () => {
    const res = await t.get(
      `/api/v1/ci-share?${new URLSearchParams([
        ['zone', 'PT'],
        ['zone', 'FI'],
        ['datetime_from', DAY],
        ['tz', 'local'],
      ])}`,
    );
    expect(res.status).toBe(422);
    const body = await get<{ day: string; zone: string }>('/api/v1/ci-share', {
      ...AROUND,
      resolution: '1H',
      tz: 'local',
    });
    const fi = body.data.find((r) => r.zone === 'FI')!;
    const pt = body.data.find((r) => r.zone === 'PT')!;
    expect(fi.day).toBe('2025-10-25T15:00:00+03:00');
    expect(pt.day).toBe('2025-10-25T13:00:00+01:00');
  });

  it('flow-price-scatter at 1D in a time zone: one observation per local day, the mean of its non-outage hours', async () => {
    const hourly = await get<{
      datetime: string;
      flow_type: string;
      net_flow_mw: number;
      bidding_zone_from: string;
      price_from: number | null;
      price_to: number | null;
    }>('/api/v1/flows', { border: 'DE_LU->FR', ...AROUND, resolution: '1H' });
    const inDay = hourly.data.filter(
      (r) => localDay(Date.parse(r.datetime), 'Europe/Berlin') === DAY && r.flow_type !== 'outage',
    );
    const signed = inDay.map((r) => (r.bidding_zone_from === 'DE_LU' ? r.net_flow_mw : -r.net_flow_mw));
    const mean = signed.reduce((a, b) => a + b, 0) / signed.length;
    const scatter = await get<{ net_flow_mw: number; count: number }>('/api/v1/flow-price-scatter', {
      border: 'DE_LU->FR',
      datetime_from: DAY,
      datetime_to: '2025-10-27',
      resolution: '1D',
      tz: 'Europe/Berlin',
      flow_bin_mw: '1',
      price_bin: '1000',
    });
    expect(scatter.meta.time_zone).toBe('Europe/Berlin');
    expect(scatter.data).toHaveLength(1);
    expect(scatter.data[0]!.count).toBe(1);
    expect(scatter.data[0]!.net_flow_mw).toBe(Math.round(mean));
  });

  it('flow-duration reads naive bounds in the time zone and reports it', async () => {
    const naive = await get<Record<string, unknown>>('/api/v1/flow-duration', {
      border: 'FI->SE_1',
      datetime_from: DAY,
      datetime_to: '2025-10-27',
      tz: 'local',
    });
    const explicit = await get<Record<string, unknown>>('/api/v1/flow-duration', {
      border: 'FI->SE_1',
      datetime_from: `${DAY}T00:00:00+03:00`,
      datetime_to: '2025-10-27T00:00:00+02:00',
    });
    expect(naive.meta.time_zone).toBe('local');
    expect(naive.meta.resolved_datetime_from).toBe('2025-10-25T21:00:00');
    expect(naive.data).toEqual(explicit.data);
  });
});
