import { describe, expect } from 'vitest';
import type { Resolution } from '../../src/domain/resolution.js';
import {
  ciCountBatches,
  findCiCounts,
  findFlowTypeCounts,
  flowTypeCountBatches,
} from '../../src/repositories/flows/aggregates.js';
import { findScatter, type OrientedBorder, scatterBatches } from '../../src/repositories/flows/stats.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

/** Partial first and last days and weeks, across the end of summer time (2025-10-26). */
const RANGE = { from: new Date('2025-09-23T05:00:00Z'), to: new Date('2025-11-04T07:00:00Z') };
const NAMES: Record<string, string> = { DE_LU: 'Europe/Berlin', FI: 'Europe/Helsinki', PT: 'Europe/Lisbon' };

describe.each(TEST_BACKENDS)('flow-type counts read in batches (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  // 43 days (2025-09-23 to 2025-11-04) in 43 or 11 batches; 7 ISO weeks (from 2025-09-22) in 7 or 4.
  it.each([
    ['1D', 1, 43],
    ['1D', 4, 11],
    ['1W', 1, 7],
    ['1W', 2, 4],
  ] as [Resolution, number, number][])(
    'equal the counts read at once at %s, %i bucket(s) a batch',
    async (resolution, size, count) => {
      const f = { ...RANGE, borderIds: null, flowTypes: [] };
      const whole = await findFlowTypeCounts(db, f, resolution);
      const batches: number[] = [];
      const rows = [];
      for await (const batch of flowTypeCountBatches(db, f, resolution, size)) {
        batches.push(batch.length);
        rows.push(...batch);
      }
      expect(whole.length).toBeGreaterThan(59 * 6);
      expect(rows).toEqual(whole);
      expect(batches).toHaveLength(count);
      expect(Math.max(...batches)).toBeLessThanOrEqual(59 * size);
    },
  );

  it.each([
    ['1D', 1],
    ['1D', 3],
    ['1W', 1],
  ] as [Resolution, number][])(
    'equal the counts read at once in local days or weeks at %s, %i bucket(s) a batch',
    async (resolution, size) => {
      const b = await db.rawQuery<{ id: number; code: string }>(
        `SELECT b.id, za.code FROM border b JOIN zone za ON za.id = b.zone_a_id WHERE za.code IN ('DE_LU', 'FI', 'PT') ORDER BY b.id`,
      );
      const tz = { borderIds: b.map((r) => r.id), names: b.map((r) => NAMES[r.code]!) };
      const f = { ...RANGE, borderIds: tz.borderIds, flowTypes: [] };
      const whole = await findFlowTypeCounts(db, f, resolution, tz);
      const rows = await flowTypeCountBatches(db, f, resolution, size, tz).all();
      expect(whole.length).toBeGreaterThan(b.length * 6);
      expect(rows).toEqual(whole);
    },
  );
});

describe.each(TEST_BACKENDS)('counter-intuitive counts read in batches (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  const zones = async (codes: readonly string[]) =>
    db.rawQuery<{ id: number; code: string }>(`SELECT id, code FROM zone WHERE code = ANY($1) ORDER BY id`, [codes]);

  // 43 days in 43, 11 or 2 batches; 7 ISO weeks in 7 or 4; hours in batches of whole UTC days.
  it.each([
    ['1D', 1, 43],
    ['1D', 4, 11],
    ['1D', 40, 2],
    ['1W', 1, 7],
    ['1W', 2, 4],
    ['1H', 3, 15],
  ] as [Resolution, number, number][])(
    'equal the counts read at once at %s, %i day(s) or week(s) a batch',
    async (resolution, size, count) => {
      const whole = await findCiCounts(db, RANGE, null, resolution);
      const batches: number[] = [];
      const rows = [];
      for await (const batch of ciCountBatches(db, RANGE, null, resolution, size)) {
        batches.push(batch.length);
        rows.push(...batch);
      }
      expect(whole.length).toBeGreaterThan(20 * 6);
      expect(rows).toEqual(whole);
      expect(batches).toHaveLength(count);
    },
  );

  it.each([
    ['1D', 1],
    ['1D', 3],
    ['1W', 1],
    ['1W', 3],
  ] as [Resolution, number][])(
    'equal the counts read at once in local days or weeks at %s, %i day(s) or week(s) a batch',
    async (resolution, size) => {
      const z = await zones(Object.keys(NAMES));
      const tz = { zoneIds: z.map((r) => r.id), names: z.map((r) => NAMES[r.code]!) };
      const ids = z.map((r) => r.id);
      const whole = await findCiCounts(db, RANGE, ids, resolution, tz);
      const rows = await ciCountBatches(db, RANGE, ids, resolution, size, tz).all();
      // Helsinki's days start at 21:00 or 22:00 UTC, Lisbon's at 23:00 or 00:00: they straddle the cuts.
      expect(whole.filter((r) => r.day.getUTCHours() !== 0).length).toBeGreaterThan(0);
      expect(whole.length).toBeGreaterThan(ids.length * 6);
      expect(rows).toEqual(whole);
    },
  );
});

describe.each(TEST_BACKENDS)('scatter bins read in batches (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  const bins = { flowBinMw: 250, priceBin: 5 };

  /** Every border in stored orientation, a few written B->A, one written twice, in no particular order. */
  async function written(): Promise<OrientedBorder[]> {
    const b = await db.rawQuery<{ id: number; a: string; b: string }>(
      `SELECT b.id, za.code AS a, zb.code AS b FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id ORDER BY b.id DESC`,
    );
    const borders = b.map((r, i) =>
      i % 5 === 0
        ? { borderId: r.id, flip: true, name: `${r.b}->${r.a}` }
        : { borderId: r.id, flip: false, name: `${r.a}->${r.b}` },
    );
    return [...borders, borders[3]!];
  }

  it.each([
    ['1D', 1],
    ['1D', 7],
    ['1W', 2],
    ['1H', 10],
  ] as [Resolution, number][])('equal the bins read at once at %s, %i border(s) a batch', async (resolution, size) => {
    const borders = await written();
    const f = { ...RANGE, borderIds: null, flowTypes: [] };
    const whole = await findScatter(db, f, borders, resolution, bins);
    const batches: number[] = [];
    const rows = [];
    for await (const batch of scatterBatches(db, f, borders, resolution, bins, size)) {
      batches.push(batch.length);
      rows.push(...batch);
    }
    expect(whole.length).toBeGreaterThan(borders.length);
    expect(rows).toEqual(whole);
    // The border written twice is one name: its two rows are never parted.
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil((borders.length - 1) / size));
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(borders.length / size));
  });

  it('bin hourly observations as binning each observation in its written orientation does, ties and -0 included', async () => {
    const once = await written();
    const reversed = once[1]!;
    const [a, b] = reversed.name.split('->');
    const borders = [...once, { borderId: reversed.borderId, flip: !reversed.flip, name: `${b}->${a}` }];
    const tied = { flowBinMw: 25, priceBin: 0.5 };
    const f = { ...RANGE, borderIds: null, flowTypes: [] };
    const rows = await findScatter(db, f, borders, '1H', tied);
    const oracle = await db.rawQuery<{
      zoneFrom: string;
      zoneTo: string;
      netFlowMw: number;
      priceDelta: number;
      count: number;
    }>(
      `SELECT split_part(o.name, '->', 1) COLLATE "C" AS "zoneFrom", split_part(o.name, '->', 2) COLLATE "C" AS "zoneTo",
              (round(o.flow / 25::float8) * 25::float8) + 0 AS "netFlowMw",
              (round(o.delta / 0.5::float8) * 0.5::float8) + 0 AS "priceDelta", count(*)::int AS count
       FROM (SELECT w.name,
                    CASE WHEN w.flip THEN -1 ELSE 1 END * CASE WHEN coalesce(h.export_from_a, true) THEN h.net_flow_mw ELSE -h.net_flow_mw END AS flow,
                    CASE WHEN w.flip THEN -1 ELSE 1 END * (h.price_b_eur_mwh - h.price_a_eur_mwh) AS delta
             FROM unnest($1::smallint[], $2::bool[], $3::text[]) AS w(border_id, flip, name)
             JOIN border_hour h ON h.border_id = w.border_id
             WHERE h.ts >= $4 AND h.ts < $5 AND h.flow_type IS NOT NULL AND h.flow_type <> 'outage'
               AND h.net_flow_mw IS NOT NULL AND h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL) o
       GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      [borders.map((b) => b.borderId), borders.map((b) => b.flip), borders.map((b) => b.name), RANGE.from, RANGE.to],
    );
    expect(rows.length).toBeGreaterThan(1_000);
    expect(rows.filter((r) => r.priceDelta % 1 !== 0).length).toBeGreaterThan(0);
    expect(rows.map((r) => ({ ...r }))).toEqual(oracle.map((r) => ({ ...r })));
    expect(rows.some((r) => Object.is(r.netFlowMw, -0) || Object.is(r.priceDelta, -0))).toBe(false);
  });

  it.each([
    ['1D', 1],
    ['1W', 4],
  ] as [Resolution, number][])(
    'equal the bins read at once in local days or weeks at %s, %i border(s) a batch',
    async (resolution, size) => {
      const borders = await written();
      const zonesA = await db.rawQuery<{ id: number; code: string }>(
        `SELECT b.id, za.code FROM border b JOIN zone za ON za.id = b.zone_a_id ORDER BY b.id`,
      );
      const tz = { borderIds: zonesA.map((r) => r.id), names: zonesA.map((r) => NAMES[r.code] ?? 'Europe/Helsinki') };
      const f = { ...RANGE, borderIds: null, flowTypes: [] };
      const whole = await findScatter(db, f, borders, resolution, bins, tz);
      const rows = await scatterBatches(db, f, borders, resolution, bins, size, tz).all();
      expect(whole.length).toBeGreaterThan(borders.length);
      expect(rows).toEqual(whole);
    },
  );
});
