import { describe, expect } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { rollupSourcesStatement } from '../../src/repositories/sql/rollup-sources.js';
import { read } from '../../src/db/executor.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

/** Zone (1-based rank by id), first and last day of January 2025, sources of those days. */
const SPANS = [
  [1, 1, 5, '{demo}'],
  [1, 6, 10, '{entsoe}'],
  [2, 1, 10, '{demo,entsoe}'],
  [3, 3, 4, '{entsoe}'],
  [3, 8, 8, '{demo}'],
] as const;

const day = (d: number) => `2025-01-${String(d).padStart(2, '0')}`;

describe.each(TEST_BACKENDS)('distinct sources of a daily rollup (%s)', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  async function zoneIds(): Promise<number[]> {
    const rows = await db.rawQuery<{ id: number }>('SELECT id FROM zone ORDER BY id LIMIT 3');
    return rows.map((r) => r.id);
  }

  it('lists the sources of exactly the rows in the day range and key filter, as unnesting every row does', async () => {
    const ids = await zoneIds();
    for (const [rank, first, last, sources] of SPANS) {
      await db.rawQuery(
        `INSERT INTO price_daily (zone_id, day, weighted_sum, minutes, interpolated, sources)
         SELECT $1, d::date, 60 * 50, 60, false, $2::"DataSource"[] FROM generate_series($3::date, $4::date, interval '1 day') d`,
        [ids[rank - 1], sources, day(first), day(last)],
      );
    }
    const subsets = [[ids[0]!], [ids[1]!], [ids[2]!], [ids[0]!, ids[2]!], ids];
    let nonEmpty = 0;
    for (let from = 0; from <= 11; from += 1) {
      for (let to = from; to <= 12; to += 1) {
        for (const zones of subsets) {
          const keys = Prisma.sql`AND d.zone_id = ANY(${zones}::smallint[])`;
          const [fromDay, toDay] = [from, to].map((d) => (d === 0 ? '2024-12-31' : day(d))) as [string, string];
          const got = await read<{ source: string }>(
            db,
            'testRollupSources',
            rollupSourcesStatement('price_daily', fromDay, toDay, keys),
          );
          const expected = await db.rawQuery<{ source: string }>(
            `SELECT DISTINCT unnest(sources)::text AS source FROM price_daily
             WHERE zone_id = ANY($1::smallint[]) AND day >= $2::date AND day < $3::date ORDER BY 1`,
            [zones, fromDay, toDay],
          );
          expect(
            got.map((r) => r.source),
            `${fromDay}..${toDay} zones ${zones.join(',')}`,
          ).toEqual(expected.map((r) => r.source));
          if (expected.length) nonEmpty += 1;
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(100);
  });

  it('finds no sources in an empty rollup', async () => {
    await db.rawQuery('DELETE FROM price_daily');
    const rows = await read(
      db,
      'testRollupSources',
      rollupSourcesStatement('price_daily', '2025-01-01', '2025-02-01', Prisma.empty),
    );
    expect(rows).toEqual([]);
  });
});
