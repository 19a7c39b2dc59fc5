import { Prisma } from '../../generated/prisma/client.js';

/** A daily rollup with a `sources` array and an index led by `sources` (then key and day, or day and key). */
export type SourcesRollup = 'price_daily' | 'border_daily';

/**
 * The statement listing the distinct data sources (rows `source`, sorted) of a daily rollup's
 * rows on the UTC days [fromDay, toDay) (`YYYY-MM-DD`) that also pass `keys` (a condition on alias
 * `d`, e.g. `AND d.zone_id = ANY(...)`). The rollups hold few distinct `sources` arrays: a skip scan
 * lists them on the index led by `sources`, then an index probe per array checks that it occurs in
 * the range, instead of unnesting every rollup row of the range. With the key before the day
 * (price_daily), an array the range holds for other zones only costs one probe per requested zone.
 */
export function rollupSourcesStatement(
  table: SourcesRollup,
  fromDay: string,
  toDay: string,
  keys: Prisma.Sql,
): Prisma.Sql {
  const rollup = Prisma.raw(table);
  return Prisma.sql`
    WITH RECURSIVE arrays(sources) AS (
      (SELECT d.sources FROM ${rollup} d ORDER BY d.sources LIMIT 1)
      UNION ALL
      SELECT (SELECT d.sources FROM ${rollup} d WHERE d.sources > a.sources ORDER BY d.sources LIMIT 1)
      FROM arrays a WHERE a.sources IS NOT NULL
    )
    SELECT DISTINCT unnest(a.sources)::text AS source FROM arrays a
    WHERE a.sources IS NOT NULL AND EXISTS (
      SELECT 1 FROM ${rollup} d
      WHERE d.sources = a.sources AND d.day >= ${fromDay}::date AND d.day < ${toDay}::date ${keys})
    ORDER BY 1`;
}
