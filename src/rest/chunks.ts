import { currentRequestLife, type RequestLife } from '../deadline.js';
import { RowBatches, type Rows } from '../domain/row-batches.js';

/** A response body's chunks: written at once from rows in memory, or as {@link RowBatches} are read. */
export type Chunks<C> = Iterator<C> | AsyncIterator<C>;

/** How a format writes rows: its chunks before the first row, for each run of rows, and after the last. */
export interface RowWriter<R, C> {
  head?(): Iterable<C>;
  rows(rows: readonly R[]): Iterable<C>;
  tail?(): Iterable<C>;
}

/** The chunks `writer` makes of rows in memory. */
export function* writeArray<R, C>(rows: readonly R[], writer: RowWriter<R, C>): Generator<C> {
  if (writer.head) yield* writer.head();
  yield* writer.rows(rows);
  if (writer.tail) yield* writer.tail();
}

/**
 * The chunks `writer` makes of row batches, each batch written as it is read; the first batch is
 * read before the first chunk is given, so a failure to read it comes before any of the body.
 * Every batch is read within `life` (the request's, when the chunks were made inside one): past
 * its deadline or once its client has left, the read in progress is cancelled, no further batch is
 * read, and the iteration fails with the life's reason, however late the body is read.
 */
async function* writeBatches<R, C>(
  rows: RowBatches<R>,
  writer: RowWriter<R, C>,
  life: RequestLife | undefined,
): AsyncGenerator<C> {
  const batches = rows[Symbol.asyncIterator]();
  const read = () => (life ? life.run(() => batches.next()) : batches.next());
  try {
    let next = await read();
    if (writer.head) yield* writer.head();
    for (; !next.done; next = await read()) yield* writer.rows(next.value);
    if (writer.tail) yield* writer.tail();
  } finally {
    await batches.return?.();
  }
}

/**
 * The chunks `writer` makes of an answer's rows: at once from an array, as they are read from
 * batches (within the running request's life, see {@link writeBatches}).
 */
export function writeRows<R, C>(rows: Rows<R>, writer: RowWriter<R, C>): Chunks<C> {
  return rows instanceof RowBatches ? writeBatches(rows, writer, currentRequestLife()) : writeArray(rows, writer);
}
