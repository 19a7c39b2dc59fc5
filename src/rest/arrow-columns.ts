/** Arrow record batches made straight from column batches (typed arrays), no object per row. */
import {
  type Bool,
  type Data,
  DataType,
  type Float64,
  type Int32,
  makeData,
  RecordBatch,
  type Schema,
  Struct,
  type TimestampMillisecond,
  type Utf8,
} from 'apache-arrow';
import type { Column, ColumnBatch } from '../domain/columns.js';

const TWO_32 = 4_294_967_296;
const encoder = new TextEncoder();

/** Epoch ms as Arrow's int64 timestamps: the two little-endian 32-bit halves of each value. */
function int64Of(ms: Float64Array): BigInt64Array {
  const out = new BigInt64Array(ms.length);
  const halves = new Int32Array(out.buffer);
  for (let i = 0; i < ms.length; i++) {
    const t = ms[i]!;
    halves[2 * i] = (t % TWO_32) | 0;
    halves[2 * i + 1] = Math.floor(t / TWO_32);
  }
  return out;
}

/** 0/1 bytes as an Arrow bit map (least significant bit first). */
function bitsOf(values: Uint8Array): Uint8Array {
  const bits = new Uint8Array(Math.ceil(values.length / 8));
  for (let i = 0; i < values.length; i++) if (values[i]) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
}

/** The same text in each of `length` rows, as utf8 offsets and bytes. */
function repeated(value: string, length: number): { offsets: Int32Array; bytes: Uint8Array } {
  const one = encoder.encode(value);
  const bytes = new Uint8Array(one.length * length);
  const offsets = new Int32Array(length + 1);
  for (let i = 0; i < length; i++) {
    bytes.set(one, i * one.length);
    offsets[i + 1] = (i + 1) * one.length;
  }
  return { offsets, bytes };
}

/** Arrow's validity bit map and null count of a column's `valid` bytes (none: no nulls). */
function nullsOf(column: Column): { nullBitmap?: Uint8Array; nullCount: number } {
  if (column.kind === 'constant' || !column.valid) return { nullCount: 0 };
  let nulls = 0;
  for (const v of column.valid) if (!v) nulls++;
  return nulls ? { nullBitmap: bitsOf(column.valid), nullCount: nulls } : { nullCount: 0 };
}

/** The Arrow data of a column, typed as its schema field (a column of another kind is a programming error). */
function dataOf(name: string, type: DataType, column: Column | undefined, length: number): Data {
  const wrong = () => new Error(`column ${name}: ${column?.kind ?? 'missing'} cannot be written as ${type}`);
  if (!column) throw wrong();
  const nulls = nullsOf(column);
  if (DataType.isTimestamp(type)) {
    if (column.kind !== 'timestamp') throw wrong();
    return makeData({ type: type as TimestampMillisecond, length, data: int64Of(column.ms), ...nulls });
  }
  if (DataType.isFloat(type)) {
    if (column.kind !== 'float') throw wrong();
    return makeData({ type: type as Float64, length, data: column.values, ...nulls });
  }
  if (DataType.isInt(type)) {
    if (column.kind !== 'int') throw wrong();
    return makeData({ type: type as Int32, length, data: column.values, ...nulls });
  }
  if (DataType.isBool(type)) {
    if (column.kind !== 'bool') throw wrong();
    return makeData({ type: type as Bool, length, data: bitsOf(column.values), ...nulls });
  }
  if (DataType.isUtf8(type)) {
    if (column.kind === 'constant') {
      const { offsets, bytes } = repeated(column.value, length);
      return makeData({ type: type as Utf8, length, valueOffsets: offsets, data: bytes });
    }
    if (column.kind !== 'utf8') throw wrong();
    return makeData({ type: type as Utf8, length, valueOffsets: column.offsets, data: column.bytes, ...nulls });
  }
  throw wrong();
}

/** The record batch of a column batch under `schema` (fields matched by name; a column's `valid` bytes mark its nulls). */
export function recordBatchOfColumns(schema: Schema, batch: ColumnBatch): RecordBatch {
  const children = schema.fields.map((f) => dataOf(f.name, f.type, batch.columns.get(f.name), batch.length));
  const data = makeData({ type: new Struct(schema.fields), length: batch.length, nullCount: 0, children });
  return new RecordBatch(schema, data);
}
