import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

interface FlowRow {
  datetime: string;
  bidding_zone_from: string;
  bidding_zone_to: string;
  flow_type: string;
  net_flow_mw: number;
  hours: number;
}

/**
 * Borders in three time zones (UTC+0, +1, +2 in winter): ES->PT read in Europe/Lisbon by name (no
 * border with demo flows has a zone A at UTC+0), the others in their zone A's time zone (`local`).
 */
const BORDERS = { 'ES->PT': 'Europe/Lisbon', 'DE_LU->FR': 'Europe/Berlin', 'FI->SE_1': 'Europe/Helsinki' } as const;
/** The test demo data holds the 2025-10-26 switch to winter time. */
const DAY = '2025-10-26';

const localDay = (ms: number, tz: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(ms),
  );

describe.each(TEST_BACKENDS)('/flows with a time zone on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);

  async function flows(params: Record<string, string>): Promise<{ meta: Record<string, unknown>; data: FlowRow[] }> {
    const res = await t.get(`/api/v1/flows?${new URLSearchParams(params)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { meta: Record<string, unknown>; data: FlowRow[] };
  }

  for (const [border, tz] of Object.entries(BORDERS)) {
    it(`${border}: the local day ${DAY} in ${tz} has 25 hours and the mean of its hourly rows`, async () => {
      const hourly = await flows({
        border,
        datetime_from: '2025-10-25T12:00:00Z',
        datetime_to: '2025-10-27T12:00:00Z',
        resolution: '1H',
      });
      expect(hourly.meta).not.toHaveProperty('time_zone');
      const inDay = hourly.data.filter((r) => localDay(Date.parse(r.datetime), tz) === DAY);
      expect(inDay).toHaveLength(25);

      const named = tz === 'Europe/Lisbon';
      const daily = await flows({
        border,
        datetime_from: DAY,
        datetime_to: '2025-10-27',
        resolution: '1D',
        tz: named ? tz : 'local',
      });
      expect(daily.meta.time_zone).toBe(named ? tz : 'local');
      const groups = new Map<string, number[]>();
      for (const r of inDay) {
        const key = `${r.bidding_zone_from}|${r.bidding_zone_to}|${r.flow_type}`;
        groups.set(key, [...(groups.get(key) ?? []), r.net_flow_mw]);
      }
      expect(daily.data).toHaveLength(groups.size);
      const start = {
        'Europe/Lisbon': `${DAY}T00:00:00+01:00`,
        'Europe/Berlin': `${DAY}T00:00:00+02:00`,
        'Europe/Helsinki': `${DAY}T00:00:00+03:00`,
      }[tz];
      for (const r of daily.data) {
        expect(r.datetime).toBe(start);
        const values = groups.get(`${r.bidding_zone_from}|${r.bidding_zone_to}|${r.flow_type}`)!;
        expect(r.hours).toBe(values.length);
        expect(r.net_flow_mw).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 1);
      }
      expect(daily.data.reduce((n, r) => n + r.hours, 0)).toBe(25);
    });
  }

  it("hourly rows keep their instants and carry the offset of the border's zone A", async () => {
    const plain = await flows({
      border: 'FR->DE_LU',
      datetime_from: '2025-10-26T00:00:00Z',
      datetime_to: '2025-10-26T02:00:00Z',
      resolution: '1H',
    });
    const local = await flows({
      border: 'FR->DE_LU',
      datetime_from: '2025-10-26T00:00:00Z',
      datetime_to: '2025-10-26T02:00:00Z',
      resolution: '1H',
      tz: 'local',
    });
    expect(local.data.map((r) => Date.parse(r.datetime))).toEqual(plain.data.map((r) => Date.parse(r.datetime)));
    expect(local.data.map((r) => r.datetime)).toEqual(['2025-10-26T02:00:00+02:00', '2025-10-26T02:00:00+01:00']);
  });

  it('local 1D pages over borders in several time zones: offset pages join up to the whole', async () => {
    const base = {
      zone: 'SE_1',
      datetime_from: '2025-10-20T00:00:00Z',
      datetime_to: '2025-10-30T00:00:00Z',
      resolution: '1D',
      tz: 'local',
    };
    const all = await flows(base);
    const first = await flows({ ...base, limit: '7' });
    const rest = await flows({ ...base, offset: '7' });
    expect([...first.data, ...rest.data]).toEqual(all.data);
    expect(new Set(all.data.map((r) => r.datetime.slice(19)))).toEqual(new Set(['+03:00', '+02:00', '+01:00']));
  });
});
