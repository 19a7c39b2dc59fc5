import { Compression, Table, transformParquetStream, WriterPropertiesBuilder } from 'parquet-wasm/node';
import type { RowContract } from '../../contract/fields.js';
import type { RowTimeZone } from '../../contract/json.js';
import type { RowBatches } from '../../domain/row-batches.js';
import { EXPORT_BATCH_ROWS } from '../../services/export.js';
import { arrowWriter } from '../arrow.js';
import { writeArray } from '../chunks.js';

/** The Arrow IPC stream of one batch of rows: schema, record batches, end marker. */
function ipcOf<R>(contract: RowContract<R>, rows: readonly R[], zoneOf?: RowTimeZone<R>): Uint8Array {
  const parts = [...writeArray(rows, arrowWriter(contract, zoneOf))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * A Parquet file of row batches, written as they are read (parquet-wasm's streaming writer, one
 * row group per {@link EXPORT_BATCH_ROWS} rows, each written out when full: the writer's default,
 * about a million rows, would hold a year of prices until the end; Snappy-compressed): the contract's Arrow columns (instants as UTC millisecond
 * timestamps). The footer comes last, after the last batch: a body cut by an error has none, so
 * no reader takes it for a whole file (parquet-wasm ends a source that fails as one that ended,
 * footer included: nothing it writes after a failed read is passed on).
 */
export async function* parquetChunks<R>(
  contract: RowContract<R>,
  rows: RowBatches<R>,
  zoneOf?: RowTimeZone<R>,
): AsyncGenerator<Uint8Array> {
  const batches = rows[Symbol.asyncIterator]();
  const first = await batches.next();
  let pending: IteratorResult<readonly R[]> | null = first;
  let failed: { readonly error: unknown } | undefined;
  const source = new ReadableStream({
    async pull(controller) {
      let next: IteratorResult<readonly R[]>;
      try {
        next = pending ?? (await batches.next());
      } catch (error) {
        failed = { error };
        throw error;
      }
      pending = null;
      if (next.done) return controller.close();
      if (!next.value.length) return;
      for (const batch of Table.fromIPCStream(ipcOf(contract, next.value, zoneOf)).recordBatches())
        controller.enqueue(batch);
    },
    async cancel() {
      await batches.return?.();
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
    await batches.return?.();
  }
}
