import { describe, expect } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../src/domain/calendar.js';
import { deleteDemoData } from '../../src/repositories/ingest/demo-data.js';
import { loadPrices, type PricePointRow } from '../../src/repositories/ingest/load.js';
import { splitHours } from '../../src/repositories/prices/hourly.js';
import { findPriceKpis } from '../../src/repositories/prices/zone-stats.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

interface HourRow {
  zone_id: number;
  hour: string;
  price: number;
  interpolated: boolean;
  peak: boolean;
}

const ROLLUP_SQL = `
  SELECT zone_id, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24') AS hour, price_eur_mwh AS price, interpolated, peak
  FROM price_hourly ORDER BY 1, 2`;

/**
 * The same rows straight from price_point by another path: hours as UTC text, the mean rounded
 * half away from zero in numeric, the peak from the local ISO weekday and hour as text.
 */
const DIRECT_SQL = `
  SELECT p.zone_id, to_char(p.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24') AS hour,
         round((sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes))::numeric, 6)::float8 AS price,
         bool_or(p.interpolated) AS interpolated,
         min(to_char(date_trunc('hour', p.ts) AT TIME ZONE z.time_zone, 'ID')) <= '5'
           AND min(to_char(date_trunc('hour', p.ts) AT TIME ZONE z.time_zone, 'HH24')) BETWEEN '08' AND '19' AS peak
  FROM price_point p JOIN zone z ON z.id = p.zone_id GROUP BY 1, 2 ORDER BY 1, 2`;

/** The price KPIs as they were computed before the rollup: every hour regrouped from price_point. */
const KPIS_FROM_POINTS = `
  WITH hp AS (
    SELECT p.zone_id, date_trunc('hour', p.ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour,
           round((sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes))::numeric, 6)::float8 AS price,
           bool_or(p.interpolated) AS interpolated
    FROM price_point p WHERE p.ts >= $1::timestamptz AND p.ts < $2::timestamptz GROUP BY 1, 2
  ), t AS (
    SELECT hp.*, extract(isodow FROM hp.hour AT TIME ZONE z.time_zone) BETWEEN 1 AND 5
             AND extract(hour FROM hp.hour AT TIME ZONE z.time_zone) BETWEEN 8 AND 19 AS peak
    FROM hp JOIN zone z ON z.id = hp.zone_id
  )
  SELECT z.code COLLATE "C" AS zone, avg(t.price)::float8 AS mean, min(t.price)::float8 AS min, max(t.price)::float8 AS max,
         coalesce(stddev_pop(t.price), 0)::float8 AS std,
         percentile_cont(0.05) WITHIN GROUP (ORDER BY t.price)::float8 AS p05,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY t.price)::float8 AS median,
         percentile_cont(0.95) WITHIN GROUP (ORDER BY t.price)::float8 AS p95,
         (avg(t.price) FILTER (WHERE t.peak))::float8 AS "peakMean", (avg(t.price) FILTER (WHERE NOT t.peak))::float8 AS "offpeakMean",
         count(*) FILTER (WHERE t.price < 0)::int AS "negativeHours", count(*)::int AS hours,
         count(*) FILTER (WHERE t.interpolated)::int AS "interpolatedHours"
  FROM t JOIN zone z ON z.id = t.zone_id GROUP BY z.code ORDER BY 1`;

describe('splitHours', () => {
  it('keeps whole hours apart from the partial hours at the ends', () => {
    const split = splitHours({ from: new Date('2025-10-05T10:15:00Z'), to: new Date('2025-10-05T13:30:00Z') });
    expect(split.hours).toEqual({ from: new Date('2025-10-05T11:00:00Z'), to: new Date('2025-10-05T13:00:00Z') });
    expect(split.edges.map((e) => [e.from.toISOString(), e.to.toISOString()])).toEqual([
      ['2025-10-05T10:15:00.000Z', '2025-10-05T11:00:00.000Z'],
      ['2025-10-05T13:00:00.000Z', '2025-10-05T13:30:00.000Z'],
    ]);
  });

  it('is one edge when the range holds no whole hour', () => {
    const range = { from: new Date('2025-10-05T10:15:00Z'), to: new Date('2025-10-05T10:45:00Z') };
    expect(splitHours(range)).toEqual({ hours: null, edges: [range] });
  });
});

describe.each(TEST_BACKENDS)('price_hourly rollup (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  const zoneId = async (code: string) =>
    (await db.rawQuery<{ id: number }>('SELECT id FROM zone WHERE code = $1', [code]))[0]!.id;

  it('holds, after the demo seed, every zone-hour of price_point with its mean, flags and peak', async () => {
    const rollup = await db.rawQuery<HourRow>(ROLLUP_SQL);
    expect(rollup.length).toBe(30 * 46 * 24);
    expect(rollup).toEqual(await db.rawQuery<HourRow>(DIRECT_SQL));
    expect(rollup.filter((r) => r.peak).length).toBeGreaterThan(30 * 30 * 12);
  });

  it('gives price KPIs equal to regrouping price_point, over a range cutting its first and last hour', async () => {
    const range = { from: new Date('2025-10-05T10:15:00Z'), to: new Date('2025-10-27T17:45:00Z') };
    const ids = (await db.rawQuery<{ id: number }>('SELECT id FROM zone ORDER BY id')).map((r) => r.id);
    const kpis = await findPriceKpis(db, range, ids);
    expect(kpis.length).toBe(30);
    const reference = await db.rawQuery<Record<string, number | string>>(KPIS_FROM_POINTS, [
      range.from.toISOString(),
      range.to.toISOString(),
    ]);
    // Sums of floats differ in their last bits with the order rows are summed in; every other figure is exact.
    const summed = ['mean', 'std', 'peakMean', 'offpeakMean'];
    const exact = (r: object) => Object.fromEntries(Object.entries(r).filter(([k]) => !summed.includes(k)));
    expect(kpis.map(exact)).toEqual(reference.map(exact));
    kpis.forEach((k, i) => {
      for (const key of summed) expect(k[key as keyof typeof k] as number).toBeCloseTo(reference[i]![key] as number, 9);
    });
  });

  it('follows a re-ingest: hourly prices loaded over 15-minute ones, then a day of new quarter-hours', async () => {
    const fr = await zoneId('FR');
    const day = Date.parse('2025-10-12T00:00:00Z');
    const hourly: PricePointRow[] = Array.from({ length: 24 }, (_, h) => ({
      zoneId: fr,
      ts: new Date(day + h * HOUR_MS),
      periodMinutes: 60,
      priceEurMwh: h - 5.5,
      interpolated: h === 3,
      source: 'entsoe',
    }));
    await loadPrices(db, hourly);
    const quarters: PricePointRow[] = Array.from({ length: 96 }, (_, q) => ({
      zoneId: fr,
      ts: new Date(day + HOUR_MS * 24 + q * 15 * MINUTE_MS),
      periodMinutes: 15,
      priceEurMwh: 100 + q,
      interpolated: false,
      source: 'entsoe',
    }));
    await loadPrices(db, quarters);
    const rows = await db.rawQuery<HourRow>(
      `${ROLLUP_SQL.replace('ORDER BY', `WHERE zone_id = ${fr} AND hour >= '2025-10-12' AND hour < '2025-10-14' ORDER BY`)}`,
    );
    expect(rows.map((r) => r.price)).toEqual([
      ...hourly.map((r) => r.priceEurMwh),
      ...Array.from({ length: 24 }, (_, h) => 100 + 4 * h + 1.5),
    ]);
    expect(rows.filter((r) => r.interpolated).map((r) => r.hour)).toEqual(['2025-10-12 03']);
    expect(await db.rawQuery<HourRow>(ROLLUP_SQL)).toEqual(await db.rawQuery<HourRow>(DIRECT_SQL));
  });

  it('loses the demo hours with the demo prices', async () => {
    await deleteDemoData(db);
    const left = await db.rawQuery<{ n: number; points: number }>(
      "SELECT (SELECT count(*) FROM price_hourly)::int AS n, (SELECT count(DISTINCT (zone_id, date_trunc('hour', ts))) FROM price_point)::int AS points",
    );
    expect(left[0]!.n).toBe(left[0]!.points);
  });
});
