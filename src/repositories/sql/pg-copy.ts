/** `COPY ... FROM STDIN` over node-postgres, through pg-copy-streams. */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

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
