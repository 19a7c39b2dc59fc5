import { describe, expect } from 'vitest';
import { ZONES } from '../../src/domain/catalogue-data.js';
import { DEMO_ZONE_CODES } from '../../src/demo/profiles.js';
import { seedDemo } from '../../src/demo/seed.js';
import { deleteDemoData } from '../../src/repositories/ingest/demo-data.js';
import { refreshPriceDaily } from '../../src/repositories/prices/rollup.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW, TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

describe.each(TEST_BACKENDS)('seeded demo database (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  it('stores the 30 demo zones with their real EIC codes and time zones', async () => {
    const rows = await db.rawQuery<{ code: string; eic: string; time_zone: string }>(
      `SELECT z.code, z.eic, z.time_zone FROM zone z WHERE EXISTS (SELECT 1 FROM price_point p WHERE p.zone_id = z.id) ORDER BY z.code`,
    );
    expect(rows.map((r) => r.code)).toEqual([...DEMO_ZONE_CODES].sort());
    const catalogue = new Map(ZONES.map((z) => [z.code, z]));
    for (const r of rows) {
      expect(r.eic).toBe(catalogue.get(r.code)?.eic);
      expect(r.time_zone).toBe(catalogue.get(r.code)?.timeZone);
    }
    expect(rows.find((r) => r.code === 'DE_LU')?.eic).toBe('10Y1001A1001A82H');
  });

  it('stores 15-minute prices from 2025-10-01 and hourly prices before, with source demo', async () => {
    const rows = await db.rawQuery<{ quarter: boolean; period_minutes: number; n: number; sources: string }>(
      `SELECT ts >= '2025-10-01T00:00Z' AS quarter, period_minutes, count(*)::int AS n,
              string_agg(DISTINCT source::text, ',') AS sources
       FROM price_point GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(rows.map((r) => [r.quarter, r.period_minutes, r.sources])).toEqual([
      [false, 60, 'demo'],
      [true, 15, 'demo'],
    ]);
    const hourlyDays = (Date.UTC(2025, 9, 1) - DEMO_TEST_FROM.getTime()) / 86_400_000;
    expect(rows[0]?.n).toBe(30 * 24 * hourlyDays);
    expect(rows[1]?.n).toBe(30 * 96 * 37);
  });

  it('covers the UTC day of the 2025-10-26 DST change with 96 quarter-hours per zone', async () => {
    const rows = await db.rawQuery<{ minutes: number; n: number }>(
      `SELECT minutes, count(*)::int AS n FROM price_daily WHERE day = '2025-10-26' GROUP BY minutes`,
    );
    expect(rows).toEqual([{ minutes: 1440, n: 30 }]);
  });

  it('stores the daily price rollup that recomputing it from the stored prices gives, bit for bit', async () => {
    const read = () =>
      db.rawQuery<{
        zone_id: number;
        day: string;
        w: string;
        minutes: number;
        interpolated: boolean;
        sources: string;
      }>(
        `SELECT zone_id, day::text, float8send(weighted_sum)::text AS w, minutes, interpolated, sources::text FROM price_daily ORDER BY 1, 2`,
      );
    const loaded = await read();
    const [span] = await db.rawQuery<{ first: Date; last: Date }>(
      'SELECT min(ts) AS first, max(ts) AS last FROM price_point',
    );
    expect(loaded.length).toBeGreaterThan(30 * 28);
    expect(await refreshPriceDaily(db, { from: span!.first, to: new Date(span!.last.getTime() + 1) })).toBe(
      loaded.length,
    );
    expect(await read()).toEqual(loaded);
  });

  it('has every flow type in every ISO week of the test data', async () => {
    const rows = await db.rawQuery<{ week: string; types: string }>(
      `SELECT to_char(date_trunc('week', ts AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week,
              string_agg(DISTINCT flow_type::text, ',' ORDER BY flow_type::text) AS types
       FROM border_hour GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.length).toBe(7);
    for (const r of rows) expect(r.types, r.week).toBe('congestion,convergence,counter_intuitive,outage');
  });

  it('lets coupled neighbours share one hourly price in most hours', async () => {
    const rows = await db.rawQuery<{ key: string; share: number }>(
      `SELECT za.code || '->' || zb.code AS key, avg((h.price_a_eur_mwh = h.price_b_eur_mwh)::int)::float8 AS share
       FROM border_hour h JOIN border b ON b.id = h.border_id
       JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id GROUP BY 1`,
    );
    expect(rows).toHaveLength(59);
    expect(rows.filter((r) => r.share > 0.5).length / rows.length).toBeGreaterThan(0.7);
    const share = new Map(rows.map((r) => [r.key, r.share]));
    for (const key of ['DE_LU->NL', 'ES->PT', 'LT->LV', 'SE_1->SE_2']) expect(share.get(key), key).toBeGreaterThan(0.8);
  });

  it('has physical flows only for completed hours and derives later hours from schedules', async () => {
    const rows = await db.rawQuery<{ future: boolean; physical: number; derived: number; n: number }>(
      `SELECT ts >= $1::timestamptz AS future, count(physical_source)::int AS physical,
              sum(flow_derived::int)::int AS derived, count(*)::int AS n
       FROM border_hour GROUP BY 1 ORDER BY 1`,
      [DEMO_TEST_NOW.toISOString()],
    );
    expect(rows[0]).toMatchObject({ future: false, physical: rows[0]?.n, derived: 0 });
    expect(rows[1]).toMatchObject({ future: true, physical: 0, derived: rows[1]?.n });
  });

  it('builds the flow rollups of every classified border-hour', async () => {
    const [row] = await db.rawQuery<{ rollup: number; hours: number }>(
      `SELECT (SELECT sum(hours)::int FROM border_daily) AS rollup,
              (SELECT count(*)::int FROM border_hour WHERE flow_type IS NOT NULL) AS hours`,
    );
    expect(row?.rollup).toBe(row?.hours);
    expect(row?.hours).toBe(59 * 46 * 24);
  });

  it('does not seed again into a database that holds prices', async () => {
    expect(await seedDemo(db, { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM })).toBeNull();
  });
});

describe.each(TEST_BACKENDS)('reseeding the demo data (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });

  it('deletes the demo rows and their rollups, then loads the same data set again', async ({ db }) => {
    const tables = [
      'price_point',
      'price_daily',
      'border_hour',
      'border_outage',
      'border_daily',
      'border_weekly',
      'zone_daily',
    ];
    const countAll = async () =>
      (
        await db.rawQuery<Record<string, number>>(
          `SELECT ${tables.map((x) => `(SELECT count(*)::int FROM ${x}) AS ${x}`).join(', ')}`,
        )
      )[0];
    const before = await countAll();
    const gone = await deleteDemoData(db);
    expect(gone).toEqual({
      prices: before?.price_point,
      borderHours: before?.border_hour,
      outages: before?.border_outage,
    });
    expect(Object.values((await countAll()) ?? {})).toEqual(tables.map(() => 0));
    const again = await seedDemo(db, { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM });
    expect(again?.prices).toBe(before?.price_point);
    expect(await countAll()).toEqual(before);
  });
});
