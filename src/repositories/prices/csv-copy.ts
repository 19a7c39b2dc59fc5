/**
 * CSV of price rows written by PostgreSQL itself (`COPY (query) TO STDOUT WITH CSV`): the bulk
 * export's fast path, byte for byte the text of the row writer (src/rest/csv.ts) for UTC rows
 * without lineage.
 */
import type { Readable } from 'node:stream';
import type { Database } from '../../db/client.js';
import { cancelRequest } from '../../db/pooler.js';
import { currentRequestSignal } from '../../deadline.js';
import { Prisma } from '../../generated/prisma/client.js';
import { namedText } from '../sql/executor.js';
import { copyOut, inlinedText } from '../sql/pg-copy.js';
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
 * The CSV lines (no header) of each query in turn, one `COPY` each on one pooled connection, as
 * PostgreSQL writes them (back-pressured), in chunks of whole lines (a marker written after a
 * failure starts a line of its own). The request signal current at the first read (the
 * export's) cancels the running COPY; a connection left mid-COPY is discarded, not pooled (its
 * late errors, a termination, still heard here).
 */
export async function* copyPricesCsv(db: Database, queries: readonly PriceQuery[]): AsyncGenerator<Buffer> {
  if (db.kind !== 'postgres' || !db.pool) throw new Error('COPY TO STDOUT needs a PostgreSQL pool');
  const signal = currentRequestSignal();
  signal?.throwIfAborted();
  const client = await db.pool.connect();
  let finished = false;
  let cancelling: Promise<void> | undefined;
  const cancel = () => {
    cancelling ??= cancelRequest(client).catch(() => undefined);
  };
  let copying: Readable | undefined;
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
    copying?.destroy(err);
  };
  client.on('error', onError);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (const q of queries) {
      signal?.throwIfAborted();
      const text = namedText(
        'copyPricesCsv',
        Prisma.raw(`COPY (${inlinedText(pricesCsvStatement(q))}) TO STDOUT WITH CSV`),
      );
      let rest: Buffer | undefined;
      if (broken) throw broken;
      copying = copyOut(client, text);
      for await (const chunk of copying) {
        const bytes = rest ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
        const end = bytes.lastIndexOf(LF) + 1;
        rest = end < bytes.length ? bytes.subarray(end) : undefined;
        if (end > 0) yield crlf(bytes.subarray(0, end));
      }
      if (rest) throw new Error('COPY ended inside a line');
    }
    finished = true;
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (finished) client.off('error', onError);
    if (!finished) cancel();
    if (cancelling) await cancelling;
    client.release(!finished);
  }
}
