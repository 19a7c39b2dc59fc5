/** Statements written out by PostgreSQL itself (`COPY (query) TO STDOUT ...`) in turn on one pooled connection. */
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PoolClient } from 'pg';
import type { Database } from '../../db/client.js';
import { cancelRequest } from '../../db/pooler.js';
import { currentRequestSignal } from '../../deadline.js';
import { Prisma } from '../../generated/prisma/client.js';
import { namedText } from '../../db/executor.js';
import { copyOut } from '../../db/pg-copy.js';

/** What {@link copyEach} gives: a chunk of a statement's bytes, or the end of one statement. */
export type CopyChunk = Buffer | typeof COPY_END;

/** Marks the end of one statement's bytes in {@link copyEach}. */
export const COPY_END = Symbol('copy end');

/**
 * The bytes of each `COPY ... TO STDOUT` statement in turn (named `name`), one pooled connection
 * for all, as PostgreSQL writes them (back-pressured), each statement's followed by
 * {@link COPY_END}. The request signal current at the first read (the export's) cancels the
 * running COPY: a cancel request is sent again every {@link CANCEL_RETRY_MS} until the statement
 * has ended (one sent in the instant before the server started the statement finds nothing to
 * cancel). A connection left mid-COPY is discarded, not pooled (its late errors, a termination,
 * still heard here).
 */
export async function* copyEach(db: Database, name: string, statements: readonly string[]): AsyncGenerator<CopyChunk> {
  if (db.kind !== 'postgres' || !db.pool) throw new Error('COPY TO STDOUT needs a PostgreSQL pool');
  const signal = currentRequestSignal();
  signal?.throwIfAborted();
  const client = await db.pool.connect();
  let finished = false;
  let settled = false;
  let cancelling: Promise<void> | undefined;
  const cancel = () => {
    cancelling ??= cancelUntil(client, () => settled);
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
    for (const statement of statements) {
      signal?.throwIfAborted();
      if (broken) throw broken;
      copying = copyOut(client, namedText(name, Prisma.raw(statement)));
      for await (const chunk of copying) yield chunk as Buffer;
      yield COPY_END;
    }
    finished = true;
  } finally {
    settled = true;
    signal?.removeEventListener('abort', cancel);
    if (finished) client.off('error', onError);
    if (!finished) await cancelRequest(client).catch(() => undefined);
    if (cancelling) await cancelling;
    client.release(!finished || cancelling !== undefined);
  }
}

/** Milliseconds between the cancel requests of an aborted COPY (ms). */
export const CANCEL_RETRY_MS = 200;

/** Cancel requests sent at most for one aborted COPY (then its connection's discarding, or the statement time limit, ends it). */
const CANCEL_TRIES = 50;

/** Sends a cancel request for `client`'s statement, then again every {@link CANCEL_RETRY_MS} until `ended()`. */
async function cancelUntil(client: PoolClient, ended: () => boolean): Promise<void> {
  for (let tries = 0; tries < CANCEL_TRIES && !ended(); tries++) {
    await cancelRequest(client).catch(() => undefined);
    if (!ended()) await sleep(CANCEL_RETRY_MS);
  }
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
 * The CSV lines (no header, CRLF-terminated) of each `COPY ... TO STDOUT WITH CSV` statement in
 * turn ({@link copyEach}: one pooled connection, cancelled by the export's signal), in chunks of
 * whole lines (a marker written after a failure starts a line of its own).
 */
export async function* copyCsvLines(db: Database, name: string, statements: readonly string[]): AsyncGenerator<Buffer> {
  let rest: Buffer | undefined;
  for await (const chunk of copyEach(db, name, statements)) {
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
