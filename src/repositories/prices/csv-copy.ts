/**
 * CSV of price rows written by PostgreSQL itself (`COPY (query) TO STDOUT WITH CSV`): the bulk
 * export's fast path, byte for byte the text of the row writer (src/rest/csv.ts) for UTC rows
 * without lineage.
 */
import type { Database } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { copyCsvLines } from '../sql/copy-out.js';
import { inlinedText } from '../../db/pg-copy.js';
import { type PriceQuery, zonedRowsSql } from './rows.js';

/**
 * The lines of a price query as the CSV writer writes the REST row `datetime, bidding_zone,
 * price_mwh, interpolated, year` (UTC, no `tz`): `2025-10-01T00:15:00Z` (whole seconds), the zone
 * code, the price in EUR/MWh rounded to 0.0001 as `Math.round(p * 1e4) / 1e4` (ties up, the exact
 * fraction test below) in the shortest text that reads back to the same double (PostgreSQL 12+),
 * `true`/`false`, the UTC year; ordered by (datetime, zone).
 */
export function pricesCsvStatement(q: PriceQuery): Prisma.Sql {
  return Prisma.sql`
    SELECT to_char(r.datetime AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), r.zone,
           (floor(r.x) + CASE WHEN r.x - floor(r.x) >= 0.5::float8 THEN 1::float8 ELSE 0::float8 END) / 10000::float8,
           CASE WHEN r.interpolated THEN 'true' ELSE 'false' END,
           extract(year FROM r.datetime AT TIME ZONE 'UTC')::int
    FROM (SELECT r.datetime, r.zone, r.price * 10000::float8 AS x, r.interpolated FROM (${zonedRowsSql(q)}) r) r
    ORDER BY r.datetime, r.zone`;
}

/**
 * The CSV lines (no header) of each query in turn, one `COPY` each on one pooled connection
 * ({@link copyCsvLines}: cancelled by the export's signal), in chunks of whole CRLF lines.
 */
export function copyPricesCsv(db: Database, queries: readonly PriceQuery[]): AsyncGenerator<Buffer> {
  const statements = queries.map((q) => `COPY (${inlinedText(pricesCsvStatement(q))}) TO STDOUT WITH CSV`);
  return copyCsvLines(db, 'copyPricesCsv', statements);
}
