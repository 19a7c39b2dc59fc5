/** `COPY ... FROM STDIN` and `COPY (query) TO STDOUT` over node-postgres, through pg-copy-streams. */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * Bytes per CopyData message. The embedded engine's wire server appends every socket read to its
 * input buffer (a copy of all it holds) until a message is whole, so a message much larger than a
 * read (64 KiB) is copied over and over: 4 MiB messages cost the engine thread seconds per load.
 */
const CHUNK_BYTES = 64 * 1024;

function* chunks(payload: Uint8Array): Generator<Buffer> {
  const buffer = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  for (let at = 0; at < buffer.length; at += CHUNK_BYTES) yield buffer.subarray(at, at + CHUNK_BYTES);
}

/** Sends `payload` (in the format `copySql` names) to `copySql` (`COPY t (...) FROM STDIN ...`). */
export async function copyIn(client: pg.ClientBase, copySql: string, payload: Uint8Array): Promise<void> {
  await pipeline(Readable.from(chunks(payload), { objectMode: false }), client.query(copyFrom(copySql)));
}

/** The SQL literal of a parameter value (COPY takes no parameters): timestamps, finite numbers, booleans, text, arrays of them. */
function literal(v: unknown): string {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new Error('COPY literal: invalid date');
    return `'${v.toISOString()}'::timestamptz`;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('COPY literal: non-finite number');
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(',')}]`;
  throw new Error(`COPY literal: unsupported value of type ${typeof v}`);
}

/** The text of `statement` with its parameters written in as literals (for `COPY (query) TO STDOUT`). */
export function inlinedText(statement: Prisma.Sql): string {
  return statement.text.replace(/\$(\d+)/g, (_, i: string) => literal(statement.values[Number(i) - 1]));
}

/** The bytes of `copySql` (`COPY (query) TO STDOUT ...`) as they come (back-pressured: the server waits for reads). */
export function copyOut(client: pg.ClientBase, copySql: string): Readable {
  return client.query(copyTo(copySql));
}
