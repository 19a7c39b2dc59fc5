import { describe, expect } from 'vitest';
import { generateDemo } from '../../src/demo/generate.js';
import { refreshPriceDaily } from '../../src/repositories/prices/rollup.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW, TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

interface DayRow {
  zone_id: number;
  day: string;
  mean: number;
  minutes: number;
  interpolated: boolean;
  sources: string;
}

/** price_daily as (zone, day text, mean EUR/MWh, ...). */
const ROLLUP_SQL = `
  SELECT zone_id, to_char(day, 'YYYY-MM-DD') AS day, weighted_sum / minutes AS mean, minutes, interpolated,
         array_to_string(sources, ',') AS sources
  FROM price_daily ORDER BY 1, 2`;

/** The same figures straight from price_point, grouped by the UTC date text (a different path). */
const DIRECT_SQL = `
  SELECT zone_id, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         sum(price_eur_mwh * period_minutes) / sum(period_minutes) AS mean,
         sum(period_minutes)::int AS minutes, bool_or(interpolated) AS interpolated,
         string_agg(DISTINCT source::text, ',') AS sources
  FROM price_point GROUP BY 1, 2 ORDER BY 1, 2`;

describe.each(TEST_BACKENDS)('price_daily rollup (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  it('equals a direct time-weighted aggregation of price_point', async () => {
    const rollup = await db.rawQuery<DayRow>(ROLLUP_SQL);
    const direct = await db.rawQuery<DayRow>(DIRECT_SQL);
    expect(rollup.length).toBe(direct.length);
    expect(rollup.length).toBe(30 * 46);
    rollup.forEach((r, i) => {
      const d = direct[i] as DayRow;
      expect([r.zone_id, r.day, r.minutes, r.interpolated, r.sources]).toEqual([
        d.zone_id,
        d.day,
        d.minutes,
        d.interpolated,
        d.sources,
      ]);
      expect(r.mean).toBeCloseTo(d.mean, 9);
    });
  });

  it('matches daily means computed in JS from the generated prices', async () => {
    const data = generateDemo({ now: DEMO_TEST_NOW, from: DEMO_TEST_FROM });
    const z = data.zones.indexOf('DE_LU');
    const [row] = await db.rawQuery<{ mean: number }>(
      `SELECT d.weighted_sum / d.minutes AS mean FROM price_daily d JOIN zone z ON z.id = d.zone_id
       WHERE z.code = 'DE_LU' AND d.day = '2025-10-26'`,
    );
    let sum = 0;
    let minutes = 0;
    data.grid.periodStart.forEach((ms, i) => {
      if (new Date(ms).toISOString().startsWith('2025-10-26')) {
        sum += (data.prices[z]?.price[i] as number) * (data.grid.periodMinutes[i] as number);
        minutes += data.grid.periodMinutes[i] as number;
      }
    });
    expect(minutes).toBe(1440);
    expect(row?.mean).toBeCloseTo(sum / minutes, 9);
  });

  it('recomputes only the window and deletes days whose points vanished', async () => {
    const [fr] = await db.rawQuery<{ id: number }>(`SELECT id FROM zone WHERE code = 'FR'`);
    await db.rawQuery(`DELETE FROM price_point WHERE zone_id = $1 AND ts >= '2025-10-10' AND ts < '2025-10-11'`, [
      fr?.id,
    ]);
    await db.rawQuery(
      `UPDATE price_point SET price_eur_mwh = price_eur_mwh + 10 WHERE zone_id = $1 AND ts >= '2025-10-11T06:00Z' AND ts < '2025-10-11T07:00Z'`,
      [fr?.id],
    );
    const before = await db.rawQuery<DayRow>(ROLLUP_SQL);
    await refreshPriceDaily(db, {
      from: new Date('2025-10-10T05:00Z'),
      to: new Date('2025-10-11T01:00Z'),
      zoneIds: [fr?.id as number],
    });
    const after = await db.rawQuery<DayRow>(ROLLUP_SQL);
    expect(after.length).toBe(before.length - 1);
    expect(after.find((r) => r.zone_id === fr?.id && r.day === '2025-10-10')).toBeUndefined();
    const day11 = (rows: DayRow[]) => rows.find((r) => r.zone_id === fr?.id && r.day === '2025-10-11')?.mean ?? 0;
    expect(day11(after) - day11(before)).toBeCloseTo(10 / 24, 9);
    const direct = await db.rawQuery<DayRow>(DIRECT_SQL);
    expect(after.map((r) => [r.zone_id, r.day, r.minutes])).toEqual(direct.map((r) => [r.zone_id, r.day, r.minutes]));
  });
});
