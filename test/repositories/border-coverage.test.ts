import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { findBorderSpans } from '../../src/repositories/catalogue/coverage.js';
import { read } from '../../src/db/executor.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/** The statement findBorderSpans ran before its sources came from `bool_or` (array_agg DISTINCT per kind). */
function previousBorderSpans(db: Database, ids: readonly number[]) {
  const kind = (k: string, present: string, source: string) => `min(h.ts) FILTER (WHERE ${present}) AS ${k}_from,
          max(h.ts) FILTER (WHERE ${present}) + interval '1 hour' AS ${k}_to,
          array_agg(DISTINCT h.${source}::text ORDER BY h.${source}::text) FILTER (WHERE (${present}) AND h.${source} IS NOT NULL) AS ${k}_sources`;
  const kinds = [
    kind('physical', 'h.physical_ab_mw IS NOT NULL OR h.physical_ba_mw IS NOT NULL', 'physical_source'),
    kind('scheduled', 'h.scheduled_ab_mw IS NOT NULL OR h.scheduled_ba_mw IS NOT NULL', 'scheduled_source'),
    kind('ntc', 'h.ntc_ab_mw IS NOT NULL OR h.ntc_ba_mw IS NOT NULL', 'ntc_source'),
  ];
  return read<Record<string, unknown>>(
    db,
    'testBorderHours',
    Prisma.sql`
    WITH hours AS (
      SELECT h.border_id, ${Prisma.raw(kinds.join(',\n'))}
      FROM border_hour h WHERE h.border_id = ANY(${ids.map(Number)}::smallint[])
      GROUP BY h.border_id
    ), outages AS (
      SELECT o.border_id, min(o.starts_at) AS outages_from, max(o.ends_at) AS outages_to,
             array_agg(DISTINCT o.source::text ORDER BY o.source::text) AS outages_sources
      FROM border_outage o WHERE o.border_id = ANY(${ids.map(Number)}::smallint[])
      GROUP BY o.border_id
    )
    SELECT a.code || '->' || z.code AS border, h.*, o.*
    FROM border b JOIN zone a ON a.id = b.zone_a_id JOIN zone z ON z.id = b.zone_b_id
    LEFT JOIN hours h ON h.border_id = b.id LEFT JOIN outages o ON o.border_id = b.id
    WHERE b.id = ANY(${ids.map(Number)}::smallint[])`,
  );
}

const span = (r: Record<string, unknown>, kind: string, periodMinutes: number | null) =>
  r[`${kind}_from`] instanceof Date
    ? { from: r[`${kind}_from`], to: r[`${kind}_to`], sources: r[`${kind}_sources`] ?? [], periodMinutes }
    : null;

describe.each(TEST_BACKENDS)('border coverage on %s', (backend) => {
  let db!: Database;
  let ids: number[];
  it.override({ backend, seed: 'demo' });
  const block = blockSetup();
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      ids = (await read<{ id: number }>(db, 'testBorderIds', Prisma.sql`SELECT id FROM border ORDER BY id`)).map((r) =>
        Number(r.id),
      );
      const [a, b, c] = ids as [number, number, number];
      await db.execScript(`
          UPDATE border_hour SET physical_source = 'entsoe' WHERE border_id = ${a} AND ts < '2025-10-01';
          UPDATE border_hour SET scheduled_source = NULL WHERE border_id = ${b};
          UPDATE border_hour SET ntc_ab_mw = NULL, ntc_ba_mw = NULL WHERE border_id = ${c};`);
    }),
  );

  it('gives the spans and sources the previous statement gave, on the demo data with mixed, missing and absent sources', async () => {
    const now = await findBorderSpans(db, ids);
    const before = (await previousBorderSpans(db, ids)).map((r) => ({
      border: r.border,
      physical: span(r, 'physical', 60),
      scheduled: span(r, 'scheduled', 60),
      ntc: span(r, 'ntc', 60),
      outages: span(r, 'outages', null),
    }));
    const byBorder = (rows: { border: unknown }[]) =>
      [...rows].sort((x, y) => String(x.border).localeCompare(String(y.border)));
    expect(byBorder(now)).toEqual(byBorder(before));
    expect(now.length).toBe(ids.length);
    expect(now.some((s) => s.physical?.sources.join() === 'demo,entsoe')).toBe(true);
    expect(now.some((s) => s.scheduled !== null && s.scheduled.sources.length === 0)).toBe(true);
    expect(now.some((s) => s.ntc === null && s.physical !== null)).toBe(true);
  });
});
