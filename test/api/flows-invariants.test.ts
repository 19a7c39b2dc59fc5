import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

type Row = Record<string, any>;
const RANGE = 'datetime_from=2025-10-20&datetime_to=2025-10-27';

describe.each(TEST_BACKENDS)('flow endpoints agree with the hourly /flows rows on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);
  let hourly: Row[];
  const readOnce = blockSetup();
  it.beforeEach(() =>
    readOnce.run(async () => {
      hourly = (await get(`/api/v1/flows?${RANGE}&resolution=1H`)).data;
    }),
  );

  async function get(path: string): Promise<{ meta: Row; data: any[] }> {
    const res = await t.get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as { meta: Row; data: any[] };
  }
  const day = (r: Row) => r.datetime.slice(0, 10);
  const borderOf = (r: Row) => [r.bidding_zone_from, r.bidding_zone_to].sort().join('->');

  it('holds one hourly row per assessed border-hour with every flow type present', () => {
    expect(hourly.length).toBeGreaterThan(7 * 24 * 40);
    const keys = new Set(hourly.map((r) => `${r.datetime}|${borderOf(r)}`));
    expect(keys.size).toBe(hourly.length);
    expect(new Set(hourly.map((r) => r.flow_type))).toEqual(
      new Set(['convergence', 'congestion', 'counter_intuitive', 'outage']),
    );
    for (const r of hourly.filter((x) => x.price_from !== null && x.price_to !== null).slice(0, 500)) {
      expect(r.price_delta).toBeCloseTo(r.price_to - r.price_from, 3);
      if (r.flow_type === 'counter_intuitive') expect(r.price_delta).toBeLessThan(-0.01);
      if (r.flow_type === 'congestion') expect(r.net_flow_mw).toBeGreaterThanOrEqual(0.97 * r.capacity_mw - 0.01);
    }
  });

  it('orders rows by datetime, from, to, flow type and walks pages to exactly the unpaged rows', async () => {
    const keys = hourly.map((r) => [r.datetime, r.bidding_zone_from, r.bidding_zone_to, r.flow_type].join('|'));
    expect(keys).toEqual([...keys].sort());
    const limit = 1_500;
    let offset = 0;
    const walked: Row[] = [];
    for (;;) {
      const page = await get(`/api/v1/flows?${RANGE}&resolution=1H&limit=${limit}&offset=${offset}`);
      expect(page.meta.pagination).toMatchObject({ total: hourly.length, limit, offset });
      walked.push(...page.data);
      if (!(offset + limit < page.meta.pagination.total)) {
        expect(page.meta.pagination.next_offset).toBeNull();
        break;
      }
      expect(page.meta.pagination.next_offset).toBe(offset + limit);
      offset += limit;
    }
    expect(walked).toEqual(hourly);
  });

  it('aggregates 1D rows as the hour counts and means of the hourly rows', async () => {
    const daily = (await get(`/api/v1/flows?${RANGE}&resolution=1D&border=FR->ES`)).data;
    for (const d of daily) {
      const hours = hourly.filter(
        (r) =>
          day(r) === d.datetime.slice(0, 10) &&
          r.bidding_zone_from === d.bidding_zone_from &&
          r.bidding_zone_to === d.bidding_zone_to &&
          r.flow_type === d.flow_type,
      );
      expect(d.hours).toBe(hours.length);
      expect(d.net_flow_mw).toBeCloseTo(hours.reduce((s, r) => s + r.net_flow_mw, 0) / hours.length, 1);
    }
    expect(daily.reduce((s, d) => s + d.hours, 0)).toBe(hourly.filter((r) => borderOf(r) === 'ES->FR').length);
  });

  it('flow-type-summary percentages sum to 100 and equal the /flows counts of that border and day', async () => {
    const { meta, data } = await get(`/api/v1/flow-type-summary?${RANGE}`);
    expect(meta.resolution).toBe('1D');
    expect(data.length).toBe(7 * new Set(hourly.map(borderOf)).size);
    for (const s of data) {
      const rows = hourly.filter(
        (r) => day(r) === s.day && borderOf(r) === `${s.bidding_zone_from}->${s.bidding_zone_to}`,
      );
      expect(s.hours).toBe(rows.length);
      expect(s.convergence + s.congestion + s.counter_intuitive + s.outage).toBeCloseTo(100, 2);
      for (const type of ['convergence', 'congestion', 'counter_intuitive', 'outage']) {
        expect(s[type]).toBeCloseTo((100 * rows.filter((r) => r.flow_type === type).length) / rows.length, 3);
      }
    }
  });

  it('ci-share equals the counter-intuitive hours of /flows per exporting zone and day', async () => {
    const { data } = await get(`/api/v1/ci-share?${RANGE}&resolution=1D&zone=FR&zone=DE_LU&zone=NO_2`);
    expect(data.length).toBe(21);
    for (const c of data) {
      const rows = hourly.filter(
        (r) => day(r) === c.day.slice(0, 10) && (r.bidding_zone_from === c.zone || r.bidding_zone_to === c.zone),
      );
      const ci = new Set(
        rows
          .filter((r) => r.flow_type === 'counter_intuitive' && r.bidding_zone_from === c.zone)
          .map((r) => r.datetime),
      );
      expect(c.ci_hours).toBe(ci.size);
      expect(c.total_hours).toBe(new Set(rows.map((r) => r.datetime)).size);
      expect(c.ci_percentage).toBeCloseTo(c.total_hours ? (100 * c.ci_hours) / c.total_hours : 0, 3);
    }
  });

  it('scatter counts the non-outage hours of a border, signed in the written orientation', async () => {
    const { data } = await get(
      `/api/v1/flow-price-scatter?${RANGE}&resolution=1H&border=FR->DE_LU&flow_bin_mw=10000&price_bin=1000`,
    );
    const rows = hourly.filter((r) => borderOf(r) === 'DE_LU->FR' && r.flow_type !== 'outage');
    expect(data.reduce((s, p) => s + p.count, 0)).toBe(rows.length);
    expect(data.every((p) => p.bidding_zone_from === 'FR' && p.bidding_zone_to === 'DE_LU')).toBe(true);
  });

  it('duration curves run from the largest to the smallest signed hourly flow', async () => {
    const { meta, data } = await get(`/api/v1/flow-duration?${RANGE}&border=ES->FR&points=5`);
    expect(meta.resolution).toBeNull();
    const signed = hourly
      .filter((r) => borderOf(r) === 'ES->FR')
      .map((r) => (r.bidding_zone_from === 'ES' ? r.net_flow_mw : -r.net_flow_mw));
    expect(data.map((p) => p.percentage)).toEqual([0, 25, 50, 75, 100]);
    expect(data[0].flow_mw).toBeCloseTo(Math.max(...signed), 2);
    expect(data[4].flow_mw).toBeCloseTo(Math.min(...signed), 2);
    for (let i = 1; i < data.length; i++) expect(data[i].flow_mw).toBeLessThanOrEqual(data[i - 1].flow_mw);
  });

  it('zone-import-export sums the hourly border flows of the zone', async () => {
    const { data } = await get(`/api/v1/zone-import-export?${RANGE}&zone=ES`);
    const rows = hourly.filter((r) => r.bidding_zone_from === 'ES' || r.bidding_zone_to === 'ES');
    const exp = rows.filter((r) => r.bidding_zone_from === 'ES').reduce((s, r) => s + r.net_flow_mw, 0);
    const imp = rows.filter((r) => r.bidding_zone_to === 'ES').reduce((s, r) => s + r.net_flow_mw, 0);
    expect(data).toHaveLength(1);
    expect(data[0].export_mwh).toBeCloseTo(exp, 0);
    expect(data[0].import_mwh).toBeCloseTo(imp, 0);
    expect(data[0].net_export_mwh).toBeCloseTo(exp - imp, 0);
    const byHour = new Map<string, number>();
    for (const r of rows)
      byHour.set(
        r.datetime,
        (byHour.get(r.datetime) ?? 0) + (r.bidding_zone_from === 'ES' ? r.net_flow_mw : -r.net_flow_mw),
      );
    expect(data[0].net_exporter_hours).toBe([...byHour.values()].filter((v) => v > 0).length);
    expect(data[0].peak_export_mw).toBeCloseTo(Math.max(0, ...byHour.values()), 1);
  });

  it('price-kpis match statistics of the 1H prices', async () => {
    const prices = (await get(`/api/v1/prices?${RANGE}&zone=ES&resolution=1H`)).data.map((r) => r.price_mwh as number);
    const k = (await get(`/api/v1/price-kpis?${RANGE}&zone=ES`)).data[0];
    expect(k.hours).toBe(prices.length);
    expect(k.mean_price).toBeCloseTo(prices.reduce((s, p) => s + p, 0) / prices.length, 2);
    expect(k.min_price).toBeCloseTo(Math.min(...prices), 3);
    expect(k.max_price).toBeCloseTo(Math.max(...prices), 3);
    expect(k.negative_hours).toBe(prices.filter((p) => p < 0).length);
    const sorted = [...prices].sort((a, b) => a - b);
    expect(k.median_price).toBeCloseTo((sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2, 3);
  });

  it('rejects bad flow parameters with 422s naming them', async () => {
    for (const [q, param, type] of [
      ['limit=0', 'limit', 'greater_than_equal'],
      ['limit=20001', 'limit', 'less_than_equal'],
      ['limit=abc', 'limit', 'int_parsing'],
      ['offset=-1', 'offset', 'greater_than_equal'],
      ['flow_type=sideways', 'flow_type', 'enum'],
      ['border=FR->PL', 'border', 'value_error'],
      ['zone=XX', 'zone', 'value_error'],
    ] as const) {
      const res = await t.get(`/api/v1/flows?${q}`);
      expect(res.status, q).toBe(422);
      const body = (await res.json()) as any;
      expect(body.detail[0], q).toMatchObject({ loc: ['query', param], type });
    }
  });
});
