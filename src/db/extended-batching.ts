/**
 * Extended-protocol queries for the embedded engine's wire server, which hands the engine one
 * message per call: five passes through the engine for one parameterised query.
 * {@link batchExtendedQuery} wraps the engine so a connection's Parse, Bind, Describe, Execute and
 * Close messages are held and run, in one call, with the Flush or Sync that ends them; until the
 * Sync the wrapper reports a transaction, so the wire server passes it only that connection's
 * messages (another connection's Sync never runs them).
 *
 * The engine has one session, shared by every connection, so a statement prepared by name stays
 * prepared for all of them: a Parse of a name the session already holds with the same text (the
 * names of `preparedQuery` are digests of their text) is answered ParseComplete without running
 * it, and a Close of such a statement is answered CloseComplete without running it (another
 * connection's driver still counts on it). A Parse of a name the wrapper does not know is run
 * after a Close of that name (not an error when nothing is prepared under it), so a statement the
 * session kept without the wrapper knowing never fails as "already exists". `DEALLOCATE` and
 * `DISCARD ALL` make it forget what they drop.
 */
import type { WireEngine } from './copy-batching.js';

const PARSE = 0x50; // 'P'
const BIND = 0x42; // 'B'
const DESCRIBE = 0x44; // 'D'
const EXECUTE = 0x45; // 'E'
const CLOSE = 0x43; // 'C'
const FLUSH = 0x48; // 'H'
const SYNC = 0x53; // 'S'
const PARSE_COMPLETE = 0x31; // '1'
const CLOSE_COMPLETE = 0x33; // '3'
const QUERY = 0x51; // 'Q'
/** A statement dropping prepared statements: group 1 the name DEALLOCATE drops (ALL: every one). */
const DROPS_STATEMENTS = /^\s*(?:deallocate\s+(?:prepare\s+)?"?([^\s";]+)"?|discard\s+all)\s*;?\s*$/i;

const HELD = new Set([PARSE, BIND, DESCRIBE, EXECUTE, CLOSE]);
const PARSE_COMPLETE_MESSAGE = Uint8Array.from([PARSE_COMPLETE, 0, 0, 0, 4]);
const CLOSE_COMPLETE_MESSAGE = Uint8Array.from([CLOSE_COMPLETE, 0, 0, 0, 4]);

/** A Close of the statement `name`. */
function closeStatementMessage(name: string): Uint8Array {
  const body = Buffer.from(`S${name}\0`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message[0] = CLOSE;
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}

/** The query text of a simple Query message, or of a Parse message. */
function queryText(message: Uint8Array): string {
  const start = message[0] === PARSE ? message.indexOf(0, 5) + 1 : 5;
  return Buffer.from(message.buffer, message.byteOffset + start, message.indexOf(0, start) - start).toString('utf8');
}

/** The statement name of a Parse message ('' for the unnamed statement). */
function parsedName(message: Uint8Array): string {
  const end = message.indexOf(0, 5);
  return Buffer.from(message.buffer, message.byteOffset + 5, end - 5).toString('utf8');
}

/** The statement name a Close message closes, or null when it closes a portal. */
function closedStatement(message: Uint8Array): string | null {
  if (message[5] !== 0x53) return null;
  return Buffer.from(message.buffer, message.byteOffset + 6, message.indexOf(0, 6) - 6).toString('utf8');
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/** Wraps `engine` so extended-protocol queries run one exchange per call (see the module comment). */
export function batchExtendedQuery<E extends WireEngine>(engine: E): E {
  let held: Uint8Array[] = [];
  let open = false;
  const prepared = new Map<string, Uint8Array>();

  /** Forgets what a DEALLOCATE or DISCARD ALL in `sql` drops. */
  function forgetDropped(sql: string): void {
    const match = DROPS_STATEMENTS.exec(sql);
    if (!match) return;
    if (match[1] === undefined || match[1].toLowerCase() === 'all') prepared.clear();
    else prepared.delete(match[1]);
  }

  /**
   * The held messages to send: without a leading Parse or Close of a statement the session holds
   * (`answered`: the completion to write first), with a Close before a leading Parse of a name it
   * does not know (`closed`: its CloseComplete to drop from the reply).
   */
  function take(): { batch: Uint8Array[]; answered?: Uint8Array; closed: boolean; leadingParse?: Uint8Array } {
    const batch: Uint8Array[] = [];
    let leadingParse: Uint8Array | undefined;
    let answered: Uint8Array | undefined;
    let closed = false;
    const parses = held.some((m) => m[0] === PARSE);
    for (const [i, m] of held.entries()) {
      if (m[0] === PARSE) {
        const name = parsedName(m);
        forgetDropped(queryText(m));
        const known = name === '' ? undefined : prepared.get(name);
        if (i === 0 && known && sameBytes(known, m)) {
          answered = PARSE_COMPLETE_MESSAGE;
          continue;
        }
        if (i === 0 && name !== '') {
          leadingParse = m;
          batch.push(closeStatementMessage(name));
          closed = true;
        }
      } else if (m[0] === CLOSE) {
        const name = closedStatement(m);
        if (i === 0 && !parses && name !== null && prepared.has(name)) {
          answered = CLOSE_COMPLETE_MESSAGE;
          continue;
        }
        if (name !== null) prepared.delete(name);
      }
      batch.push(m);
    }
    held = [];
    return { batch, closed, ...(answered ? { answered } : {}), ...(leadingParse ? { leadingParse } : {}) };
  }

  const run: WireEngine['execProtocolRawStream'] = async (message, options) => {
    const type = message[0];
    if (HELD.has(type!)) {
      held.push(message);
      open = true;
      return;
    }
    if (type !== FLUSH && type !== SYNC) {
      if (type === QUERY) forgetDropped(queryText(message));
      return engine.execProtocolRawStream(message, options);
    }
    const { batch, answered, closed, leadingParse } = take();
    if (type === SYNC) open = false;
    batch.push(message);
    if (answered) options.onRawData(answered);
    let drop = closed ? CLOSE_COMPLETE_MESSAGE.length : 0;
    let first = true;
    let parsed = false;
    await engine.execProtocolRawStream(new Uint8Array(Buffer.concat(batch)), {
      onRawData: (chunk) => {
        const skip = Math.min(drop, chunk.length);
        drop -= skip;
        const data = skip ? chunk.subarray(skip) : chunk;
        if (first && data.length > 0) parsed = data[0] === PARSE_COMPLETE;
        if (data.length > 0) first = false;
        if (data.length > 0 || skip === 0) options.onRawData(data);
      },
    });
    if (parsed && leadingParse) prepared.set(parsedName(leadingParse), leadingParse);
  };
  return new Proxy(engine, {
    get(target, key, receiver) {
      if (key === 'execProtocolRawStream') return run;
      if (key === 'isInTransaction') return () => open || target.isInTransaction();
      if (key === 'exec') {
        return (sql: string) => {
          held = [];
          open = false;
          return target.exec(sql);
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
