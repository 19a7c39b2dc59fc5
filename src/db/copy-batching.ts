/**
 * `COPY ... FROM STDIN` for the embedded engine's wire server. PGlite runs a COPY FROM STDIN only
 * when its copy data arrives in the same protocol call as the statement: given the statement
 * alone, it reads past the end of its input (the wire client then sees 08P01 "protocol
 * synchronization was lost"; in process the engine aborts). The wire server hands it one message
 * per call, so {@link batchCopyIn} wraps the engine: a simple-protocol `COPY ... FROM STDIN` is
 * answered at once with a CopyInResponse (overall format only, no per-column formats: clients
 * such as pg-copy-streams and psql read no more), its CopyData is buffered, and at CopyDone or
 * CopyFail the statement and its data run as one call, whose own CopyInResponse is dropped. The
 * copy data of one statement is held in memory until then.
 */

/** The part of PGlite the wire server (`@electric-sql/pglite-socket`) uses. */
export interface WireEngine {
  execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<void>;
  isInTransaction(): boolean;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  exec(sql: string): Promise<unknown>;
  readonly waitReady: Promise<void>;
}

const QUERY = 0x51; // 'Q'
const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
const COPY_FAIL = 0x66; // 'f'
const COPY_IN_RESPONSE = 0x47; // 'G'

/** A COPY FROM STDIN statement, after any leading block comments (a statement's name: see db/executor.ts). */
const COPY_FROM_STDIN = /^\s*(?:\/\*[\s\S]*?\*\/\s*)*copy\s[\s\S]*\bfrom\s+stdin\b/i;
const BINARY = /\bbinary\b/i;

/** The SQL of a simple-protocol `COPY ... FROM STDIN` Query message, else null. */
export function copyFromStdinSql(message: Uint8Array): string | null {
  if (message[0] !== QUERY || message.length < 6) return null;
  const sql = Buffer.from(message.buffer, message.byteOffset + 5, message.length - 6).toString('utf8');
  return COPY_FROM_STDIN.test(sql) ? sql : null;
}

/** A CopyInResponse naming the overall format (1 binary, 0 text) and no columns. */
export function copyInResponse(binary: boolean): Uint8Array {
  return Uint8Array.from([COPY_IN_RESPONSE, 0, 0, 0, 7, binary ? 1 : 0, 0, 0]);
}

/** `out` without its CopyInResponse messages. */
export function withoutCopyInResponse(out: Uint8Array): Uint8Array {
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const kept: Buffer[] = [];
  for (let at = 0; at + 5 <= buf.length; ) {
    const end = at + 1 + buf.readInt32BE(at + 1);
    if (buf[at] !== COPY_IN_RESPONSE) kept.push(buf.subarray(at, end));
    at = end;
  }
  return new Uint8Array(Buffer.concat(kept));
}

/**
 * Wraps `engine` so a COPY FROM STDIN sent one message per call runs (see the module comment).
 * While one is buffered the wrapper reports a transaction, so the wire server passes the engine
 * only that connection's messages; a ROLLBACK (the server's clean-up of a dropped connection)
 * discards it.
 */
export function batchCopyIn<E extends WireEngine>(engine: E): E {
  let pending: Uint8Array[] | null = null;
  const run: WireEngine['execProtocolRawStream'] = async (message, options) => {
    if (pending) {
      const type = message[0];
      if (type !== COPY_DATA && type !== COPY_DONE && type !== COPY_FAIL) return;
      pending.push(message);
      if (type === COPY_DATA) return;
      const batch = new Uint8Array(Buffer.concat(pending));
      pending = null;
      const out: Uint8Array[] = [];
      await engine.execProtocolRawStream(batch, { onRawData: (data) => out.push(data.slice()) });
      options.onRawData(withoutCopyInResponse(new Uint8Array(Buffer.concat(out))));
      return;
    }
    const sql = copyFromStdinSql(message);
    if (sql === null) return engine.execProtocolRawStream(message, options);
    pending = [message];
    options.onRawData(copyInResponse(BINARY.test(sql)));
  };
  return new Proxy(engine, {
    get(target, key, receiver) {
      if (key === 'execProtocolRawStream') return run;
      if (key === 'isInTransaction') return () => pending !== null || target.isInTransaction();
      if (key === 'exec') {
        return (sql: string) => {
          pending = null;
          return target.exec(sql);
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
