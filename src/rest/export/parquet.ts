import { Compression, Table, transformParquetStream, WriterPropertiesBuilder } from 'parquet-wasm/node';
import type { RowContract } from '../../contract/fields.js';
import type { RowTimeZone } from '../../contract/json.js';
import type { ColumnBatch } from '../../domain/columns.js';
import type { RowBatches } from '../../domain/row-batches.js';
import { EXPORT_BATCH_ROWS } from '../../services/export.js';
import { arrowColumnWriter, arrowWriter } from '../arrow.js';
import { writeArray } from '../chunks.js';

function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The Arrow IPC stream of one batch of rows: schema, record batches, end marker. */
function ipcOf<R>(contract: RowContract<R>, rows: readonly R[], zoneOf?: RowTimeZone<R>): Uint8Array {
  return joined([...writeArray(rows, arrowWriter(contract, zoneOf))]);
}

/** The Arrow IPC stream of one column batch: schema, record batch, end marker. */
function ipcOfColumns<R>(contract: RowContract<R>, columns: ColumnBatch): Uint8Array {
  const writer = arrowColumnWriter(contract);
  return joined([writer.batch(columns), writer.tail()]);
}

/** The IPC stream of each non-empty batch of rows. */
async function* rowStreams<R>(
  contract: RowContract<R>,
  rows: RowBatches<R>,
  zoneOf?: RowTimeZone<R>,
): AsyncGenerator<Uint8Array> {
  for await (const batch of rows) if (batch.length) yield ipcOf(contract, batch, zoneOf);
}

/** The IPC stream of each non-empty column batch, each counted into `count` as it is taken. */
async function* columnStreams<R>(
  contract: RowContract<R>,
  batches: AsyncIterable<ColumnBatch>,
  count: (rows: number) => void,
): AsyncGenerator<Uint8Array> {
  for await (const batch of batches) {
    count(batch.length);
    if (batch.length) yield ipcOfColumns(contract, batch);
  }
}

/**
 * A Parquet file of row batches, written as they are read: see {@link parquetOfStreams}. The
 * contract's Arrow columns (instants as UTC millisecond timestamps).
 */
export function parquetChunks<R>(
  contract: RowContract<R>,
  rows: RowBatches<R>,
  zoneOf?: RowTimeZone<R>,
): AsyncGenerator<Uint8Array> {
  return parquetOfStreams(rowStreams(contract, rows, zoneOf));
}

/** A Parquet file of column batches (REST names of the contract's fields), counted into `count` as read. */
export function parquetOfColumns<R>(
  contract: RowContract<R>,
  batches: AsyncIterable<ColumnBatch>,
  count: (rows: number) => void,
): AsyncGenerator<Uint8Array> {
  return parquetOfStreams(columnStreams(contract, batches, count));
}

/**
 * A Parquet file of Arrow IPC streams (one per batch), written as they are read (parquet-wasm's
 * streaming writer, one row group per {@link EXPORT_BATCH_ROWS} rows, each written out when
 * full: the writer's default, about a million rows, would hold a year of prices until the end;
 * Snappy-compressed). Each batch's table is freed in WebAssembly memory once its record batches are
 * handed over (the writer owns those): left to the garbage collector, the tables of a long export
 * piled up there, and WebAssembly memory never shrinks. The footer comes last, after the last batch: a body cut by an error has
 * none, so no reader takes it for a whole file (parquet-wasm ends a source that fails as one that
 * ended, footer included: nothing it writes after a failed read is passed on).
 */
async function* parquetOfStreams(streams: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  const first = await streams.next();
  let pending: IteratorResult<Uint8Array> | null = first;
  let failed: { readonly error: unknown } | undefined;
  const source = new ReadableStream({
    async pull(controller) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = pending ?? (await streams.next());
      } catch (error) {
        failed = { error };
        throw error;
      }
      pending = null;
      if (next.done) return controller.close();
      const table = Table.fromIPCStream(next.value);
      for (const batch of table.recordBatches()) controller.enqueue(batch);
      table.free();
    },
    async cancel() {
      await streams.return(undefined);
    },
  });
  const properties = new WriterPropertiesBuilder()
    .setCompression(Compression.SNAPPY)
    .setMaxRowGroupSize(EXPORT_BATCH_ROWS)
    .setCreatedBy('eumarket-api export')
    .build();
  const reader = (await transformParquetStream(source, properties)).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (failed) throw failed.error;
      if (done) return;
      yield value as Uint8Array;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    await streams.return(undefined);
  }
}
