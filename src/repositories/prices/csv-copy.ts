/**
 * CSV of price rows written by PostgreSQL itself (`COPY (query) TO STDOUT WITH CSV`): the bulk
 * export's fast path, byte for byte the text of the row writer (src/rest/csv.ts) for UTC rows
 * without lineage.
 */
import type { Database } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { COPY_END, copyEach } from '../sql/copy-out.js';
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

const LF = 0x0a;

/** `chunk` with each LF written as CRLF (COPY ends lines with LF, the CSV writer with CRLF; no field holds a line break). */
function crlf(chunk: Buffer): Buffer {
  let lines = 0;
  for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) lines++;
  if (!lines) return chunk;
  const out = Buffer.allocUnsafe(chunk.length + lines);
  let from = 0;
  let to = 0;
  for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) {
    to += chunk.copy(out, to, from, at);
    out[to++] = 0x0d;
    out[to++] = LF;
    from = at + 1;
  }
  chunk.copy(out, to, from);
  return out;
}

/**
 * The CSV lines (no header) of each query in turn, one `COPY` each on one pooled connection
 * ({@link copyEach}: cancelled by the export's signal), in chunks of whole lines (a marker written
 * after a failure starts a line of its own).
 */
export async function* copyPricesCsv(db: Database, queries: readonly PriceQuery[]): AsyncGenerator<Buffer> {
  const statements = queries.map((q) => `COPY (${inlinedText(pricesCsvStatement(q))}) TO STDOUT WITH CSV`);
  let rest: Buffer | undefined;
  for await (const chunk of copyEach(db, 'copyPricesCsv', statements)) {
    if (chunk === COPY_END) {
      if (rest) throw new Error('COPY ended inside a line');
      continue;
    }
    const bytes = rest ? Buffer.concat([rest, chunk]) : chunk;
    const end = bytes.lastIndexOf(LF) + 1;
    rest = end < bytes.length ? bytes.subarray(end) : undefined;
    if (end > 0) yield crlf(bytes.subarray(0, end));
  }
}
