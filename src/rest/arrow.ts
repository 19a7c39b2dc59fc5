import {
  AsyncByteQueue,
  Bool,
  type DataType,
  DateDay,
  Field as ArrowField,
  Float64,
  Int32,
  List,
  makeBuilder,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  TimestampMillisecond,
  Utf8,
} from 'apache-arrow';
import type { ColumnBatch } from '../domain/columns.js';
import { recordBatchOfColumns } from './arrow-columns.js';
import { type Field, restFields, type RowContract } from '../contract/fields.js';
import { type RowTimeZone, yearOf } from '../contract/json.js';
import { zonedFormatter } from '../domain/time-zone.js';
import { type RowWriter, writeArray } from './chunks.js';

/** Media type of the Arrow IPC stream format. */
export const ARROW_CONTENT_TYPE = 'application/vnd.apache.arrow.stream';

function arrowType<R>(f: Field<R>): DataType {
  switch (f.kind) {
    case 'int':
    case 'year':
      return new Int32();
    case 'float':
      return new Float64();
    case 'boolean':
      return new Bool();
    case 'datetime':
      return new TimestampMillisecond('UTC');
    case 'day':
      return new DateDay();
    case 'strings':
      return new List(new ArrowField('item', new Utf8(), false));
    case 'object':
      return new Struct(arrowFields(f.contract));
    default:
      return new Utf8();
  }
}

/** Arrow fields of a contract's REST fields: instants as UTC millisecond timestamps, days as dates, objects as structs. */
function arrowFields<R>(contract: RowContract<R>): ArrowField[] {
  return restFields(contract).map((f) => new ArrowField(f.rest, arrowType(f), f.nullable ?? false));
}

/** The Arrow schema of a contract. */
export const arrowSchema = <R>(contract: RowContract<R>): Schema => new Schema(arrowFields(contract));

type Cell = unknown;

/** A field's value as an Arrow builder takes it (instants as epoch ms, days as the UTC midnight of the (local) date, nested rows as objects). */
function cellOf<R>(f: Field<R> & { rest: string }, zoneOf?: RowTimeZone<R>): (row: R) => Cell {
  if (f.kind === 'year') return yearOf(f.value, zoneOf);
  if (f.kind === 'datetime') {
    const value = f.value;
    return (row) => value(row)?.getTime() ?? null;
  }
  if (f.kind === 'day' && zoneOf) {
    const [value, day] = [f.value, zonedFormatter('day')];
    return (row) => {
      const d = value(row);
      return d === null ? null : new Date(`${day(d, zoneOf(row))}T00:00:00Z`);
    };
  }
  if (f.kind === 'object') {
    const [value, nested] = [f.value, objectOf(f.contract)];
    return (row) => {
      const v = value(row);
      return v === null ? null : nested(v);
    };
  }
  return f.value as (row: R) => Cell;
}

function objectOf<R>(contract: RowContract<R>): (row: R) => Record<string, Cell> {
  const cells = restFields(contract).map((f) => [f.rest, cellOf(f)] as const);
  return (row) => Object.fromEntries(cells.map(([name, cell]) => [name, cell(row)]));
}

/** A record batch of rows: one builder per column. */
function batchOf<R>(
  schema: Schema,
  contract: RowContract<R>,
  rows: readonly R[],
  zoneOf?: RowTimeZone<R>,
): RecordBatch {
  const cells = restFields(contract).map((f) => cellOf(f, zoneOf));
  const children = schema.fields.map((field, i) => {
    const builder = makeBuilder({ type: field.type, nullValues: [null, undefined] });
    const cell = cells[i] as (row: R) => Cell;
    for (const row of rows) builder.append(cell(row));
    return builder.finish().flush();
  });
  const data = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new RecordBatch(schema, data);
}

/** Collects what the writer writes, synchronously, so each batch's bytes can be taken at once. */
class Collector extends AsyncByteQueue {
  private parts: Uint8Array[] = [];

  override write(value: ArrayBufferView | Uint8Array): void {
    this.parts.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice());
  }

  take(): Uint8Array {
    const size = this.parts.reduce((n, p) => n + p.byteLength, 0);
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    this.parts = [];
    return out;
  }
}

/** Rows per record batch. */
const BATCH_ROWS = 1_000;

/**
 * The Arrow IPC stream of domain rows, in chunks: the schema with the first batch, then one record
 * batch of `BATCH_ROWS` rows per chunk, then the end-of-stream marker. Columns are typed from the
 * contract (int32, float64, bool, UTC millisecond timestamps, dates, utf8, lists, structs).
 */
export function arrowChunks<R>(
  contract: RowContract<R>,
  rows: readonly R[],
  zoneOf?: RowTimeZone<R>,
): Generator<Uint8Array> {
  return writeArray(rows, arrowWriter(contract, zoneOf));
}

/** How {@link arrowChunks} writes rows: record batches of each run of rows, then the end (with an empty batch when no row came). */
export function arrowWriter<R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>): RowWriter<R, Uint8Array> {
  const ipc = ipcStream(contract);
  return {
    *rows(rows) {
      for (let at = 0; at < rows.length; at += BATCH_ROWS)
        yield ipc.write(batchOf(ipc.schema, contract, rows.slice(at, at + BATCH_ROWS), zoneOf));
    },
    *tail() {
      yield ipc.end();
    },
  };
}

/**
 * An Arrow IPC stream of a contract's schema written batch by batch: each write gives the batch's
 * bytes (the schema before the first), the end gives the end-of-stream marker (after an empty
 * batch when none was written, so that readers see the columns).
 */
function ipcStream<R>(contract: RowContract<R>): {
  readonly schema: Schema;
  write(batch: RecordBatch): Uint8Array;
  end(): Uint8Array;
} {
  const schema = arrowSchema(contract);
  const sink = new Collector();
  const writer = new RecordBatchStreamWriter({ autoDestroy: false });
  writer.reset(sink, schema);
  let written = false;
  return {
    schema,
    write(batch) {
      writer.write(batch);
      written = true;
      return sink.take();
    },
    end() {
      if (!written) writer.write(batchOf(schema, contract, []));
      writer.finish();
      return sink.take();
    },
  };
}

/** How the Arrow IPC stream of column batches is written: each batch's bytes (the schema before the first), then the end. */
export interface ColumnWriter {
  batch(columns: ColumnBatch): Uint8Array;
  tail(): Uint8Array;
}

/** The Arrow IPC stream of column batches under a contract's schema (columns matched by REST name). */
export function arrowColumnWriter<R>(contract: RowContract<R>): ColumnWriter {
  const ipc = ipcStream(contract);
  return {
    batch: (columns) => ipc.write(recordBatchOfColumns(ipc.schema, columns)),
    tail: () => ipc.end(),
  };
}
