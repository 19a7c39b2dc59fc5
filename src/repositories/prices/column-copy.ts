/**
 * Price rows as columns, read by PostgreSQL's binary COPY (`COPY (query) TO STDOUT WITH (FORMAT
 * binary)`) and parsed straight into typed arrays: the bulk export's Arrow and Parquet path, no
 * object per row.
 */
import type { Database } from '../../db/client.js';
import type { Utf8Column } from '../../domain/columns.js';
import { Prisma } from '../../generated/prisma/client.js';
import { COPY_END, copyEach } from '../sql/copy-out.js';
import { inlinedText } from '../../db/pg-copy.js';
import { type PriceQuery, zonedRowsSql } from './rows.js';

/** A batch of price rows in (datetime, zone) order, as columns. */
export interface PriceColumns {
  readonly length: number;
  /** Period start, UTC epoch ms. */
  readonly datetimeMs: Float64Array;
  /** Zone code. */
  readonly zone: Utf8Column;
  /** EUR/MWh, unrounded. */
  readonly price: Float64Array;
  /** 1 when the value fills a gap upstream. */
  readonly interpolated: Uint8Array;
}

/** The rows of {@link zonedRowsSql} in (datetime, zone) order: `datetime, zone, price, interpolated`. */
export function priceColumnsStatement(q: PriceQuery): Prisma.Sql {
  return Prisma.sql`
    SELECT r.datetime, r.zone, r.price, r.interpolated FROM (${zonedRowsSql(q)}) r
    ORDER BY r.datetime, r.zone`;
}

/** PostgreSQL's epoch (2000-01-01T00:00Z) in Unix epoch ms. */
const PG_EPOCH_MS = 946_684_800_000;
/** The binary COPY header: signature (11 bytes), flags (4), extension length (4, zero here). */
const HEADER_BYTES = 19;
const FIELDS = 4;

/** Columns filled row by row up to a capacity. */
class PriceColumnsBuilder {
  length = 0;
  private readonly datetimeMs: Float64Array;
  private readonly price: Float64Array;
  private readonly interpolated: Uint8Array;
  private readonly offsets: Int32Array;
  private bytes: Uint8Array;

  constructor(readonly capacity: number) {
    this.datetimeMs = new Float64Array(capacity);
    this.price = new Float64Array(capacity);
    this.interpolated = new Uint8Array(capacity);
    this.offsets = new Int32Array(capacity + 1);
    this.bytes = new Uint8Array(capacity * 8);
  }

  /** Appends the tuple at `at` of `view` (its field count read already); the offset after it. */
  append(view: DataView, buf: Uint8Array, at: number): number {
    const i = this.length;
    if (view.getInt32(at) !== 8) throw new Error('binary COPY: null or odd datetime');
    const micros = view.getInt32(at + 4) * 4_294_967_296 + view.getUint32(at + 8);
    this.datetimeMs[i] = Math.floor(micros / 1000) + PG_EPOCH_MS;
    at += 12;
    const zoneBytes = view.getInt32(at);
    if (zoneBytes < 0) throw new Error('binary COPY: null zone');
    at += 4;
    let end = this.offsets[i]!;
    if (end + zoneBytes > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, end + zoneBytes));
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes.set(buf.subarray(at, at + zoneBytes), end);
    end += zoneBytes;
    this.offsets[i + 1] = end;
    at += zoneBytes;
    if (view.getInt32(at) !== 8) throw new Error('binary COPY: null price');
    this.price[i] = view.getFloat64(at + 4);
    at += 12;
    if (view.getInt32(at) !== 1) throw new Error('binary COPY: null interpolated');
    this.interpolated[i] = buf[at + 4]!;
    this.length = i + 1;
    return at + 5;
  }

  take(): PriceColumns {
    const n = this.length;
    return {
      length: n,
      datetimeMs: this.datetimeMs.slice(0, n),
      zone: { kind: 'utf8', offsets: this.offsets.slice(0, n + 1), bytes: this.bytes.slice(0, this.offsets[n]) },
      price: this.price.slice(0, n),
      interpolated: this.interpolated.slice(0, n),
    };
  }
}

/** Bytes of the whole tuple starting at `at` (its field count included), or -1 when `buf` ends first (-2 at the trailer). */
function tupleBytes(view: DataView, at: number, limit: number): number {
  if (at + 2 > limit) return -1;
  const fields = view.getInt16(at);
  if (fields === -1) return -2;
  if (fields !== FIELDS) throw new Error(`binary COPY: ${fields} fields, expected ${FIELDS}`);
  let end = at + 2;
  for (let f = 0; f < FIELDS; f++) {
    if (end + 4 > limit) return -1;
    const n = view.getInt32(end);
    end += 4 + Math.max(0, n);
    if (end > limit) return -1;
  }
  return end - at;
}

/**
 * The price rows of each query in turn as column batches: the first of at most `firstRows` rows
 * (a first byte soon), the others of at most `batchRows`. One binary `COPY` per query on one
 * pooled connection ({@link copyEach}: back-pressured, cancelled by the export's signal).
 */
export async function* copyPriceColumns(
  db: Database,
  queries: readonly PriceQuery[],
  firstRows: number,
  batchRows: number,
): AsyncGenerator<PriceColumns> {
  const statements = queries.map(
    (q) => `COPY (${inlinedText(priceColumnsStatement(q))}) TO STDOUT WITH (FORMAT binary)`,
  );
  let batch = new PriceColumnsBuilder(Math.max(1, firstRows));
  let rest: Uint8Array | undefined;
  let headed = false;
  for await (const chunk of copyEach(db, 'copyPriceColumns', statements)) {
    if (chunk === COPY_END) {
      if (rest?.length || headed) throw new Error('binary COPY ended inside a tuple');
      rest = undefined;
      continue;
    }
    const buf: Uint8Array = rest?.length ? Buffer.concat([rest, chunk]) : chunk;
    let at = 0;
    if (!headed) {
      if (buf.length < HEADER_BYTES) {
        rest = buf;
        continue;
      }
      at = HEADER_BYTES;
      headed = true;
    }
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    for (;;) {
      const size = tupleBytes(view, at, buf.length);
      if (size === -1) break;
      if (size === -2) {
        at += 2;
        headed = false;
        break;
      }
      at = batch.append(view, buf, at + 2);
      if (batch.length === batch.capacity) {
        yield batch.take();
        batch = new PriceColumnsBuilder(batchRows);
      }
    }
    rest = at < buf.length ? buf.subarray(at) : undefined;
  }
  if (batch.length) yield batch.take();
}
