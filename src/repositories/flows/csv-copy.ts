/**
 * CSV of flow rows written by PostgreSQL itself (`COPY (query) TO STDOUT WITH CSV`): the bulk
 * export's fast path, byte for byte the text of the row writer (src/rest/csv.ts) for UTC rows.
 */
import { HOUR_MS } from '../../domain/calendar.js';
import type { Resolution } from '../../domain/resolution.js';
import { MW_DECIMALS, WIRE_PRICE_DECIMALS } from '../../domain/rounding.js';
import type { TimeRange } from '../../domain/time.js';
import type { Database } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { copyCsvLines } from '../sql/copy-out.js';
import { inlinedText } from '../../db/pg-copy.js';
import { epochMs } from '../sql/time.js';
import { type FlowQuery, flowRowsSql } from './row-query.js';

/** Length of a UTC bucket of each bucketed resolution, ms. */
const BUCKET_MS: Readonly<Record<Exclude<Resolution, 'native'>, number>> = {
  '1H': HOUR_MS,
  '1D': 24 * HOUR_MS,
  '1W': 7 * 24 * HOUR_MS,
};

/**
 * `x` (a float8 already multiplied by 10^decimals) rounded as the wire rounds (`Math.round(v * f) / f`:
 * ties up, the exact fraction test; a rounded -0 written `0` as JavaScript writes it).
 */
function wireRounded(x: string, decimals: number): Prisma.Sql {
  return Prisma.raw(
    `(floor(${x}) + CASE WHEN ${x} - floor(${x}) >= 0.5::float8 THEN 1::float8 ELSE 0::float8 END) / ${10 ** decimals}::float8`,
  );
}

const wireBool = (x: string) => Prisma.raw(`CASE WHEN ${x} THEN 'true' WHEN NOT ${x} THEN 'false' END`);

/**
 * The lines of a UTC flow query (no `tz`) as the CSV writer writes the REST row `datetime,
 * bidding_zone_from, bidding_zone_to, flow_type, flow_interpolated, net_flow_mw (MW, 0.001),
 * price_from, price_to, price_delta (EUR/MWh, 0.0001), capacity_mw (MW, 0.001), hours` and, at a
 * bucketed resolution, `covered_hours` (hours of the bucket inside `covered`, the whole requested
 * range): instants as `2025-10-01T13:00:00Z`, booleans `true`/`false`, NULL empty, numbers in the
 * shortest text that reads back to the same double (PostgreSQL 12+; the same as JavaScript's for
 * magnitudes from 1e-4 below 1e15), ordered as {@link flowRowsStatement} orders them.
 */
export function flowsCsvStatement(q: FlowQuery, covered: TimeRange): Prisma.Sql {
  const coveredHours =
    q.resolution === 'native'
      ? Prisma.empty
      : Prisma.raw(
          `, greatest(0::float8, least(r.start_ms + ${BUCKET_MS[q.resolution]}::float8, ${covered.to.getTime()}::float8) - greatest(r.start_ms, ${covered.from.getTime()}::float8)) / ${HOUR_MS}::float8`,
        );
  return Prisma.sql`
    SELECT to_char(r.datetime AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), r.zone_from, r.zone_to, r.flow_type,
           ${wireBool('r.flow_interpolated')}, ${wireRounded('r.net_x', MW_DECIMALS)},
           ${wireRounded('r.from_x', WIRE_PRICE_DECIMALS)}, ${wireRounded('r.to_x', WIRE_PRICE_DECIMALS)},
           ${wireRounded('r.delta_x', WIRE_PRICE_DECIMALS)}, ${wireRounded('r.capacity_x', MW_DECIMALS)}, r.hours${coveredHours}
    FROM (
      SELECT f.datetime, f.sort_key, f.zone_from, f.zone_to, f.flow_type, f.flow_interpolated, f.hours,
             f.net_flow_mw * ${Prisma.raw(`${10 ** MW_DECIMALS}`)}::float8 AS net_x,
             f.price_from * ${Prisma.raw(`${10 ** WIRE_PRICE_DECIMALS}`)}::float8 AS from_x,
             f.price_to * ${Prisma.raw(`${10 ** WIRE_PRICE_DECIMALS}`)}::float8 AS to_x,
             (f.price_to - f.price_from) * ${Prisma.raw(`${10 ** WIRE_PRICE_DECIMALS}`)}::float8 AS delta_x,
             f.capacity_mw * ${Prisma.raw(`${10 ** MW_DECIMALS}`)}::float8 AS capacity_x,
             ${epochMs(Prisma.sql`f.datetime`)}::float8 AS start_ms
      FROM (${flowRowsSql(q)}) f) r
    ORDER BY r.sort_key, r.zone_from, r.zone_to, r.flow_type`;
}

/**
 * The CSV lines (no header) of each part of a UTC flow query in turn, one `COPY` each on one
 * pooled connection ({@link copyCsvLines}: cancelled by the export's signal), in chunks of whole
 * CRLF lines; `covered` is the whole requested range (the covered hours of a bucketed row).
 */
export function copyFlowsCsv(db: Database, parts: readonly FlowQuery[], covered: TimeRange): AsyncGenerator<Buffer> {
  const statements = parts.map((q) => `COPY (${inlinedText(flowsCsvStatement(q, covered))}) TO STDOUT WITH CSV`);
  return copyCsvLines(db, 'copyFlowsCsv', statements);
}
