import { describe, expect } from 'vitest';
import { findDurationCurves, type OrientedBorder } from '../../src/repositories/flows/stats.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

/**
 * The duration curves as computed before the per-border index path: every series' signed flows
 * (flipped ones negated) gathered into one set and grouped by series name.
 */
const REFERENCE = `
  SELECT c.series, c.series_type AS "seriesType", (c.fraction * 100)::float8 AS percentage, c.flow::float8 AS "flowMw"
  FROM (
    SELECT s.series, s.series_type, unnest($4::float8[]) AS fraction,
           unnest(percentile_disc($4::float8[]) WITHIN GROUP (ORDER BY s.flow DESC)) AS flow
    FROM (
      SELECT w.name AS series, 'border' AS series_type,
             CASE WHEN w.flip THEN -(CASE WHEN coalesce(h.export_from_a, true) THEN h.net_flow_mw ELSE -h.net_flow_mw END) ELSE CASE WHEN coalesce(h.export_from_a, true) THEN h.net_flow_mw ELSE -h.net_flow_mw END END AS flow
      FROM unnest($1::smallint[], $2::bool[], $3::text[]) AS w(border_id, flip, name) JOIN border_hour h ON h.border_id = w.border_id
      WHERE h.ts >= $5::timestamptz AND h.ts < $6::timestamptz AND h.net_flow_mw IS NOT NULL
      UNION ALL
      SELECT z.code, 'zone_net',
             sum(CASE WHEN b.zone_a_id = z.id THEN CASE WHEN coalesce(h.export_from_a, true) THEN h.net_flow_mw ELSE -h.net_flow_mw END
                      ELSE -(CASE WHEN coalesce(h.export_from_a, true) THEN h.net_flow_mw ELSE -h.net_flow_mw END) END)
      FROM zone z JOIN border b ON z.id IN (b.zone_a_id, b.zone_b_id) JOIN border_hour h ON h.border_id = b.id
      WHERE z.id = ANY($7::smallint[]) AND h.ts >= $5::timestamptz AND h.ts < $6::timestamptz AND h.net_flow_mw IS NOT NULL
      GROUP BY z.code, h.ts
    ) s GROUP BY s.series, s.series_type
  ) c
  ORDER BY c.series_type, c.series COLLATE "C", c.fraction`;

describe.each(TEST_BACKENDS)('flow duration curves (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  const range = { from: new Date('2025-09-29T05:00:00Z'), to: new Date('2025-11-03T17:00:00Z') };
  const points = 11;
  const fractions = Array.from({ length: points }, (_, i) => i / (points - 1));

  async function border(a: string, b: string): Promise<OrientedBorder> {
    const [row] = await db.rawQuery<{ id: number; za: string; zb: string }>(
      `SELECT b.id, za.code AS za, zb.code AS zb FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
       WHERE (za.code, zb.code) IN (($1, $2), ($2, $1))`,
      [a, b],
    );
    return { borderId: row!.id, flip: row!.za !== a, name: `${a}->${b}` };
  }

  async function reference(borders: readonly OrientedBorder[], zoneIds: readonly number[]) {
    return db.rawQuery(REFERENCE, [
      borders.map((b) => b.borderId),
      borders.map((b) => b.flip),
      borders.map((b) => b.name),
      fractions,
      range.from.toISOString(),
      range.to.toISOString(),
      zoneIds,
    ]);
  }

  it('equals the grouped percentiles for a border in its stored and in its flipped orientation, both at once', async () => {
    const straight = await border('DE_LU', 'FR');
    const flipped = await border('FR', 'DE_LU');
    expect(straight.flip).not.toBe(flipped.flip);
    for (const borders of [[straight], [flipped], [straight, flipped]]) {
      const curves = await findDurationCurves(db, range, borders, [], points);
      expect(curves).toHaveLength(points * borders.length);
      expect(curves).toEqual(await reference(borders, []));
    }
  });

  it('equals the grouped percentiles for every border and zone net positions together', async () => {
    const all = await db.rawQuery<{ id: number; name: string }>(
      `SELECT b.id, za.code || '->' || zb.code AS name FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id ORDER BY b.id`,
    );
    const borders = all.map((b) => ({ borderId: b.id, flip: false, name: b.name }));
    const zones = (await db.rawQuery<{ id: number }>(`SELECT id FROM zone WHERE code IN ('DE_LU', 'PL')`)).map(
      (z) => z.id,
    );
    const curves = await findDurationCurves(db, range, borders, zones, points);
    expect(curves.filter((c) => c.seriesType === 'zone_net')).toHaveLength(2 * points);
    expect(curves).toEqual(await reference(borders, zones));
  });

  it('equals the grouped percentiles for every border with every other one flipped, the borders dealt into parts', async () => {
    const all = await db.rawQuery<{ id: number; za: string; zb: string }>(
      `SELECT b.id, za.code AS za, zb.code AS zb FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id ORDER BY b.id`,
    );
    const borders = all.map((b, i) =>
      i % 2
        ? { borderId: b.id, flip: true, name: `${b.zb}->${b.za}` }
        : { borderId: b.id, flip: false, name: `${b.za}->${b.zb}` },
    );
    const curves = await findDurationCurves(db, range, borders, [], points);
    expect(new Set(curves.map((c) => c.series)).size).toBeGreaterThan(12);
    expect(curves).toEqual(await reference(borders, []));
  });

  it('reads signed flows that follow each stored and each rewritten classification', async () => {
    const mismatches = `SELECT count(*)::int AS n FROM border_hour
      WHERE signed_ab_mw IS DISTINCT FROM (CASE WHEN coalesce(export_from_a, true) THEN net_flow_mw ELSE -net_flow_mw END)`;
    const [loaded] = await db.rawQuery<{ n: number }>(mismatches);
    expect(loaded!.n).toBe(0);
    const [hour] = await db.rawQuery<{ border_id: number; ts: Date; signed: number }>(
      `SELECT border_id, ts, signed_ab_mw AS signed FROM border_hour WHERE net_flow_mw > 0 AND export_from_a IS NOT NULL ORDER BY border_id, ts LIMIT 1`,
    );
    const rewritten = await db.rawQuery<{ signed: number }>(
      `UPDATE border_hour SET export_from_a = NOT export_from_a, net_flow_mw = net_flow_mw + 1
       WHERE border_id = $1 AND ts = $2 RETURNING signed_ab_mw AS signed`,
      [hour!.border_id, hour!.ts],
    );
    try {
      expect(rewritten[0]!.signed).toBe(-Math.sign(hour!.signed) * (Math.abs(hour!.signed) + 1));
      const [after] = await db.rawQuery<{ n: number }>(mismatches);
      expect(after!.n).toBe(0);
    } finally {
      await db.rawQuery(
        `UPDATE border_hour SET export_from_a = NOT export_from_a, net_flow_mw = net_flow_mw - 1 WHERE border_id = $1 AND ts = $2`,
        [hour!.border_id, hour!.ts],
      );
    }
  });

  it('leaves out a border without flows in the range', async () => {
    const quiet = { from: new Date('2030-01-01T00:00:00Z'), to: new Date('2030-01-02T00:00:00Z') };
    expect(await findDurationCurves(db, quiet, [await border('ES', 'FR')], [], points)).toEqual([]);
  });
});
