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
 * names of `preparedQuery` are digests of their text) is answered ParseComplete without
 * running it.
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
const QUERY = 0x51; // 'Q'
const FORGETS_STATEMENTS = /\b(deallocate|discard)\b/i;

const HELD = new Set([PARSE, BIND, DESCRIBE, EXECUTE, CLOSE]);
const PARSE_COMPLETE_MESSAGE = Uint8Array.from([PARSE_COMPLETE, 0, 0, 0, 4]);

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

  /** The held messages to send, without the Parse of a statement the session already holds. */
  function take(): { batch: Uint8Array[]; skipped: boolean; leadingParse?: Uint8Array } {
    const batch: Uint8Array[] = [];
    let leadingParse: Uint8Array | undefined;
    let skipped = false;
    for (const [i, m] of held.entries()) {
      if (m[0] === PARSE) {
        const name = parsedName(m);
        const known = name === '' ? undefined : prepared.get(name);
        if (i === 0 && known && sameBytes(known, m)) {
          skipped = true;
          continue;
        }
        if (i === 0 && name !== '') leadingParse = m;
      } else if (m[0] === CLOSE) {
        const name = closedStatement(m);
        if (name !== null) prepared.delete(name);
      }
      batch.push(m);
    }
    held = [];
    return { batch, skipped, ...(leadingParse ? { leadingParse } : {}) };
  }

  const run: WireEngine['execProtocolRawStream'] = async (message, options) => {
    const type = message[0];
    if (HELD.has(type!)) {
      held.push(message);
      open = true;
      return;
    }
    if (type !== FLUSH && type !== SYNC) {
      if (type === QUERY && FORGETS_STATEMENTS.test(Buffer.from(message).toString('utf8'))) prepared.clear();
      return engine.execProtocolRawStream(message, options);
    }
    const { batch, skipped, leadingParse } = take();
    if (type === SYNC) open = false;
    batch.push(message);
    if (skipped) options.onRawData(PARSE_COMPLETE_MESSAGE);
    let first = true;
    let parsed = false;
    await engine.execProtocolRawStream(new Uint8Array(Buffer.concat(batch)), {
      onRawData: (data) => {
        if (first && data.length > 0) parsed = data[0] === PARSE_COMPLETE;
        if (data.length > 0) first = false;
        options.onRawData(data);
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
