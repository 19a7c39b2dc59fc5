import { describe, expect } from 'vitest';
import { isoWeekStart } from '../../src/domain/calendar.js';
import { findFlowTypeCounts } from '../../src/repositories/flows/aggregates.js';
import { refreshFlowRollups } from '../../src/repositories/flows/rollup.js';
import { findFlowRows } from '../../src/repositories/flows/read-rows.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

interface WeekRow {
  border_id: number;
  week: string;
  flow_type: string;
  dir: boolean;
  hours: number;
  interpolated_hours: number;
  derived_hours: number;
  price_hours: number;
  capacity_hours: number;
  net_flow_sum: number;
  price_from_sum: number;
  capacity_sum: number;
  sources: string;
}

/** border_weekly as comparable rows. */
const WEEKLY_SQL = `
  SELECT border_id, to_char(week, 'YYYY-MM-DD') AS week, flow_type::text, export_from_a AS dir, hours, interpolated_hours,
         derived_hours, price_hours, capacity_hours, net_flow_sum, price_from_sum, capacity_sum, array_to_string(sources, ',') AS sources
  FROM border_weekly ORDER BY 1, 2, 3, 4`;

/** The same figures straight from border_hour, grouped by ISO week of the UTC time (another path). */
const DIRECT_SQL = `
  SELECT border_id, to_char(date_trunc('week', ts AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week, flow_type::text,
         coalesce(export_from_a, true) AS dir, count(*)::int AS hours,
         count(*) FILTER (WHERE physical_interpolated AND NOT flow_derived)::int AS interpolated_hours,
         count(*) FILTER (WHERE flow_derived)::int AS derived_hours,
         count(*) FILTER (WHERE price_a_eur_mwh IS NOT NULL AND price_b_eur_mwh IS NOT NULL)::int AS price_hours,
         count(CASE WHEN coalesce(export_from_a, true) THEN ntc_ab_mw ELSE ntc_ba_mw END)::int AS capacity_hours,
         coalesce(sum(net_flow_mw), 0) AS net_flow_sum,
         coalesce(sum(CASE WHEN coalesce(export_from_a, true) THEN price_a_eur_mwh ELSE price_b_eur_mwh END)
                  FILTER (WHERE price_a_eur_mwh IS NOT NULL AND price_b_eur_mwh IS NOT NULL), 0) AS price_from_sum,
         coalesce(sum(CASE WHEN coalesce(export_from_a, true) THEN ntc_ab_mw ELSE ntc_ba_mw END), 0) AS capacity_sum,
         string_agg(DISTINCT coalesce(physical_source, scheduled_source, ntc_source)::text, ',') AS sources
  FROM border_hour WHERE flow_type IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;

function expectSameWeeks(actual: WeekRow[], expected: WeekRow[]): void {
  const exact = (rows: WeekRow[]) => rows.map(({ net_flow_sum: _n, price_from_sum: _p, capacity_sum: _c, ...r }) => r);
  expect(exact(actual)).toEqual(exact(expected));
  actual.forEach((r, i) => {
    const e = expected[i] as WeekRow;
    expect(r.net_flow_sum).toBeCloseTo(e.net_flow_sum, 6);
    expect(r.price_from_sum).toBeCloseTo(e.price_from_sum, 6);
    expect(r.capacity_sum).toBeCloseTo(e.capacity_sum, 6);
  });
}

describe.each(TEST_BACKENDS)('border_weekly rollup (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  it('equals border_hour aggregated by ISO week after seeding', async () => {
    const weekly = await db.rawQuery<WeekRow>(WEEKLY_SQL);
    expect(weekly.length).toBeGreaterThan(59 * 7);
    expectSameWeeks(weekly, await db.rawQuery<WeekRow>(DIRECT_SQL));
  });

  it('follows a reclassification and a deletion through refreshFlowRollups', async () => {
    const window = { from: new Date('2025-10-08T13:00:00Z'), to: new Date('2025-10-15T02:00:00Z') };
    await db.rawQuery(`UPDATE border_hour SET flow_type = 'outage' WHERE ts >= $1 AND ts < $2 AND border_id % 3 = 0`, [
      window.from,
      window.to,
    ]);
    await db.rawQuery(`DELETE FROM border_hour WHERE ts >= $1 AND ts < $2 AND border_id % 5 = 0`, [
      window.from,
      window.to,
    ]);
    await refreshFlowRollups(db, window);
    expectSameWeeks(await db.rawQuery<WeekRow>(WEEKLY_SQL), await db.rawQuery<WeekRow>(DIRECT_SQL));
  });

  it('gives 1W answers equal to the 1D answers summed per week, over a range with partial weeks and days', async () => {
    const f = {
      from: new Date('2025-09-23T05:00:00Z'),
      to: new Date('2025-11-04T07:00:00Z'),
      borderIds: null,
      flowTypes: [],
    };
    const weekly = await findFlowTypeCounts(db, f, '1W');
    const daily = await findFlowTypeCounts(db, f, '1D');
    const monday = (d: Date) => new Date(isoWeekStart(d.getTime())).toISOString();
    const summed = new Map<string, number[]>();
    for (const r of daily) {
      const key = `${monday(r.day)}|${r.zoneA}|${r.zoneB}`;
      const acc = summed.get(key) ?? [0, 0, 0, 0, 0];
      [r.convergence, r.congestion, r.counterIntuitive, r.outage, r.hours].forEach((v, i) => {
        acc[i] = (acc[i] as number) + v;
      });
      summed.set(key, acc);
    }
    expect(weekly.length).toBe(summed.size);
    for (const r of weekly) {
      expect(summed.get(`${r.day.toISOString()}|${r.zoneA}|${r.zoneB}`)).toEqual([
        r.convergence,
        r.congestion,
        r.counterIntuitive,
        r.outage,
        r.hours,
      ]);
    }
    const hourly = await findFlowRows(db, { ...f, resolution: '1H', to: new Date('2025-10-07T00:00:00Z') });
    const weeklyFlows = await findFlowRows(db, { ...f, resolution: '1W', to: new Date('2025-10-07T00:00:00Z') });
    expect(weeklyFlows.reduce((n, r) => n + r.hours, 0)).toBe(hourly.length);
  });
});
