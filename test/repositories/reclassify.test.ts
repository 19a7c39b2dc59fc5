import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { classifyHour, DEFAULT_THRESHOLDS } from '../../src/domain/classification.js';
import { loadBorderHours, loadOutages, loadPrices, type PricePointRow } from '../../src/repositories/ingest/load.js';
import { BOUNDARY_HOURS } from '../support/classification-boundaries.js';
import { monthChunks, reclassify } from '../../src/repositories/flows/reclassify.js';
import { DEMO_TEST_FROM, TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';

const WHOLE = { from: DEMO_TEST_FROM, to: new Date('2025-11-07T00:00:00Z'), thresholds: DEFAULT_THRESHOLDS };

/**
 * Ten days of every border across the October DST change and a month start (two month chunks): the
 * demo data's classification is compared there, not over its 46 days (a fifth of the work, the same cases).
 */
const PARITY = { ...WHOLE, from: new Date('2025-10-24T00:00:00Z'), to: new Date('2025-11-03T00:00:00Z') };

const CLASS_SQL = `SELECT border_id, ts, flow_type::text, export_from_a, net_flow_mw, price_a_eur_mwh, price_b_eur_mwh,
  flow_derived, scheduled_flow_type::text, scheduled_export_from_a FROM border_hour
  WHERE ts >= '2025-10-24' AND ts < '2025-11-03' ORDER BY border_id, ts`;

async function borderId(db: Database, a: string, b: string): Promise<number> {
  const rows = await db.rawQuery<{ id: number }>(
    `SELECT b.id FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id WHERE za.code = $1 AND zb.code = $2`,
    [a, b],
  );
  return rows[0]?.id as number;
}

describe('month chunks', () => {
  it('splits a window at UTC month starts', () => {
    const chunks = monthChunks(new Date('2025-09-22T00:00Z'), new Date('2025-11-07T00:00Z'));
    expect(chunks.map(([f, t]) => [f.toISOString().slice(0, 10), t.toISOString().slice(0, 10)])).toEqual([
      ['2025-09-22', '2025-10-01'],
      ['2025-10-01', '2025-11-01'],
      ['2025-11-01', '2025-11-07'],
    ]);
  });
});

describe.each(TEST_BACKENDS)('reclassify (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });

  it('reproduces the stored classification of the seeded demo data exactly, across a DST change and a month start', async ({
    db,
  }) => {
    const before = await db.rawQuery(CLASS_SQL);
    expect(before).toHaveLength(59 * 10 * 24);
    const result = await reclassify(db, PARITY);
    expect(result).toEqual({ hours: 59 * 10 * 24, changed: 0 });
    await db.rawQuery(`UPDATE border_hour SET flow_type = NULL, price_a_eur_mwh = NULL, scheduled_flow_type = NULL,
      flow_derived = NOT flow_derived WHERE ts >= '2025-10-25' AND ts < '2025-10-28'`);
    expect((await reclassify(db, PARITY)).changed).toBe(59 * 3 * 24);
    expect(await db.rawQuery(CLASS_SQL)).toEqual(before);
  });

  it('classifies scheduled flows as derived where physical flows are missing', async ({ db }) => {
    const id = await borderId(db, 'DE_LU', 'FR');
    await db.rawQuery(
      `UPDATE border_hour SET physical_ab_mw = NULL, physical_ba_mw = NULL, physical_source = NULL
      WHERE border_id = $1 AND ts >= '2025-10-15' AND ts < '2025-10-16'`,
      [id],
    );
    const result = await reclassify(db, {
      ...WHOLE,
      from: new Date('2025-10-15T00:00Z'),
      to: new Date('2025-10-16T00:00Z'),
      borderIds: [id],
    });
    expect(result.hours).toBe(24);
    const rows = await db.rawQuery<{ derived: boolean; same: boolean }>(
      `SELECT flow_derived AS derived, flow_type IS NOT DISTINCT FROM scheduled_flow_type AND export_from_a IS NOT DISTINCT FROM scheduled_export_from_a AS same
       FROM border_hour WHERE border_id = $1 AND ts >= '2025-10-15' AND ts < '2025-10-16'`,
      [id],
    );
    expect(rows).toHaveLength(24);
    for (const r of rows) expect(r).toEqual({ derived: true, same: true });
  });

  it('makes every hour an outage record overlaps an outage hour, on both bases', async ({ db }) => {
    const mismatches = await db.rawQuery(
      `SELECT h.border_id, h.ts, h.flow_type FROM border_hour h
       WHERE EXISTS (SELECT 1 FROM border_outage o WHERE o.border_id = h.border_id AND o.starts_at < h.ts + interval '1 hour' AND o.ends_at > h.ts)
         AND (h.flow_type <> 'outage' OR h.scheduled_flow_type <> 'outage')`,
    );
    expect(mismatches).toEqual([]);
    const id = await borderId(db, 'ES', 'PT');
    await loadOutages(db, [
      {
        borderId: id,
        startsAt: new Date('2025-10-20T10:30Z'),
        endsAt: new Date('2025-10-20T13:00Z'),
        planned: false,
        reason: 'test',
        mrid: null,
        source: 'entsoe',
      },
    ]);
    await reclassify(db, { ...WHOLE, from: new Date('2025-10-20T00:00Z'), to: new Date('2025-10-21T00:00Z') });
    const hours = await db.rawQuery<{ hour: string; flow_type: string }>(
      `SELECT to_char(ts AT TIME ZONE 'UTC', 'HH24') AS hour, flow_type::text FROM border_hour
       WHERE border_id = $1 AND ts >= '2025-10-20T09:00Z' AND ts < '2025-10-20T14:00Z' ORDER BY ts`,
      [id],
    );
    expect(hours.map((h) => [h.hour, h.flow_type === 'outage'])).toEqual([
      ['09', false],
      ['10', true],
      ['11', true],
      ['12', true],
      ['13', false],
    ]);
  });

  it('follows price changes: a price jump in one zone splits coupled hours', async ({ db }) => {
    const id = await borderId(db, 'ES', 'PT');
    await db.rawQuery(`UPDATE price_point SET price_eur_mwh = price_eur_mwh + 500
      WHERE zone_id = (SELECT id FROM zone WHERE code = 'PT') AND ts >= '2025-10-21T08:00Z' AND ts < '2025-10-21T09:00Z'`);
    await reclassify(db, {
      ...WHOLE,
      from: new Date('2025-10-21T08:00Z'),
      to: new Date('2025-10-21T09:00Z'),
      borderIds: [id],
    });
    const [row] = await db.rawQuery<{ a: number; b: number; flow_type: string; export_from_a: boolean }>(
      `SELECT price_a_eur_mwh AS a, price_b_eur_mwh AS b, flow_type::text, export_from_a FROM border_hour WHERE border_id = $1 AND ts = '2025-10-21T08:00Z'`,
      [id],
    );
    expect((row?.b ?? 0) - (row?.a ?? 0)).toBeGreaterThan(400);
    if (row?.export_from_a) expect(['convergence', 'congestion']).toContain(row.flow_type);
    else expect(row?.flow_type).toBe('counter_intuitive');
  });

  describe('on an empty database', () => {
    it.override({ seed: 'empty' });

    it('classifies the hand-computed boundary hours as the pure rules do, prices averaged in SQL', async ({ db }) => {
      const [border] = await db.rawQuery<{ id: number; a: number; b: number }>(
        `SELECT b.id, b.zone_a_id AS a, b.zone_b_id AS b FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
       WHERE za.code = 'DE_LU' AND zb.code = 'FR'`,
      );
      const start = Date.parse('2025-10-01T00:00:00Z');
      const hourAt = (i: number) => new Date(start + i * 3_600_000);
      const prices: PricePointRow[] = BOUNDARY_HOURS.flatMap((h, i) => {
        const row = { interpolated: false, source: 'entsoe' as const };
        const b = h.quartersB
          ? h.quartersB.map((p, q) => ({
              ...row,
              zoneId: border!.b,
              ts: new Date(hourAt(i).getTime() + q * 900_000),
              periodMinutes: 15,
              priceEurMwh: p,
            }))
          : [{ ...row, zoneId: border!.b, ts: hourAt(i), periodMinutes: 60, priceEurMwh: h.priceB }];
        return [{ ...row, zoneId: border!.a, ts: hourAt(i), periodMinutes: 60, priceEurMwh: h.priceA }, ...b];
      });
      await loadPrices(db, prices);
      await loadBorderHours(
        db,
        BOUNDARY_HOURS.map((h, i) => ({
          borderId: border!.id,
          ts: hourAt(i),
          physicalAbMw: h.flowAbMw,
          physicalBaMw: h.flowBaMw,
          physicalSource: 'entsoe' as const,
          ntcAbMw: h.ntcAbMw,
          ntcBaMw: h.ntcBaMw,
          ntcSource: 'entsoe' as const,
        })),
      );
      const result = await reclassify(db, {
        from: hourAt(0),
        to: hourAt(BOUNDARY_HOURS.length),
        thresholds: DEFAULT_THRESHOLDS,
      });
      expect(result.hours).toBe(BOUNDARY_HOURS.length);
      const stored = await db.rawQuery<{ flow_type: string; export_from_a: boolean | null; a: number; b: number }>(
        `SELECT flow_type::text, export_from_a, price_a_eur_mwh AS a, price_b_eur_mwh AS b FROM border_hour WHERE border_id = $1 ORDER BY ts`,
        [border!.id],
      );
      const expected = BOUNDARY_HOURS.map((h) => ({
        name: h.name,
        flow_type: h.flowType,
        export_from_a: h.exportFromA,
        a: h.priceA,
        b: h.priceB,
      }));
      expect(stored.map((r, i) => ({ name: BOUNDARY_HOURS[i]!.name, ...r }))).toEqual(expected);
      const pure = BOUNDARY_HOURS.map(
        (h, i) => classifyHour({ ...h, priceA: stored[i]!.a, priceB: stored[i]!.b, outage: false }).flowType,
      );
      expect(stored.map((r) => r.flow_type)).toEqual(pure);
    });
  });
});
