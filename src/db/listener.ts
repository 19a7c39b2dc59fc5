/**
 * Receives the data events of the service's schema: on PostgreSQL through `LISTEN` on a dedicated
 * connection (not from the pool; to the server itself past a pooler: see `Database.direct`;
 * `application_name` `emk_events:<schema>`), reconnecting after an
 * error with a growing pause (reading from replicas, an event is delivered once they have replayed
 * its commit: see `Database.caughtUp`); on the embedded database in this process through PGlite's own
 * `listen`, and served over the wire by this process through the engine thread's notifications.
 */
import pg from 'pg';
import { type Database, directOf } from './client.js';
import { type Catalogue, DATA_CATALOGUE } from '../domain/catalogue.js';
import type { Logger } from '../logger.js';
import { type DataEvent, dataEventsChannel, readDataEvent } from '../domain/data-events.js';

/** Whether the listener receives events (`listening`) or is reconnecting, and since when (ms since epoch). */
export interface ListenerState {
  readonly state: 'listening' | 'reconnecting';
  readonly since: number;
}

/** A running listener. */
export interface DataEventListener {
  /** Listening, or reconnecting (events are being missed) since when. */
  state(): ListenerState;
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

/** Options of {@link listenForDataEvents}. */
export interface ListenOptions {
  readonly logger?: Logger;
  /** First pause before reconnecting, ms (doubles up to 30 s). Default 500. */
  readonly reconnectMs?: number;
  /** Called when listening resumes after the connection was lost (events may have been missed). */
  readonly onReconnect?: () => void;
  /** Least time between two warnings of dropped payloads, ms. Default 60,000. */
  readonly warnEveryMs?: number;
  /** The catalogue areas are checked against. Default {@link DATA_CATALOGUE}. */
  readonly catalogue?: Catalogue;
  /** Told how many areas of a payload were not in the catalogue (dropped), when any were. */
  readonly onUnknownAreas?: (count: number) => void;
}

/**
 * Warns of payloads dropped as not data events of the schema: the first at once, then at most one
 * line per `everyMs`, with the number dropped since the previous line (anyone may NOTIFY).
 */
function droppedWarning(
  logger: Logger | undefined,
  everyMs: number,
): (reason: string, payload: string | undefined) => void {
  let last = -Infinity;
  let dropped = 0;
  return (reason, payload) => {
    dropped++;
    const now = performance.now();
    if (now - last < everyMs) return;
    last = now;
    logger?.warn(
      { reason, bytes: Buffer.byteLength(payload ?? ''), dropped },
      'data events: dropped notifications that are not data events of this schema',
    );
    dropped = 0;
  };
}

/** Starts delivering the schema's data events to `onEvent`; resolves once listening. */
export async function listenForDataEvents(
  db: Database,
  onEvent: (e: DataEvent) => void,
  opts: ListenOptions = {},
): Promise<DataEventListener> {
  const channel = dataEventsChannel(db.schema);
  const warnDropped = droppedWarning(opts.logger, opts.warnEveryMs ?? 60_000);
  const hand = (event: DataEvent) => {
    try {
      onEvent(event);
    } catch (err) {
      opts.logger?.error({ err }, 'data events: delivering an event failed');
    }
  };
  let caughtUp = Promise.resolve();
  const deliver = (payload: string | undefined) => {
    const read = readDataEvent(payload, db.schema, opts.catalogue ?? DATA_CATALOGUE);
    if (read.unknownAreas) opts.onUnknownAreas?.(read.unknownAreas);
    if ('dropped' in read) return warnDropped(read.dropped, payload);
    if (!db.caughtUp) return hand(read.event);
    const wait = () => db.caughtUp!().catch(() => undefined);
    caughtUp = caughtUp.then(wait).then(() => hand(read.event));
  };
  if (db.pglite) {
    const engine = db.pglite;
    const unlisten = await engine.listen(channel, deliver);
    const state = listeningSince(Date.now());
    return { state: () => state, close: async () => (engine.closed ? undefined : unlisten()) };
  }
  if (db.notifications) {
    const off = db.notifications.on(channel, deliver);
    const state = listeningSince(Date.now());
    return { state: () => state, close: async () => off() };
  }
  const pool = directOf(db).pool;
  if (!pool) throw new Error('database without its engine or pool');
  return listenOnPostgres(
    { ...pool.options, application_name: `emk_events:${db.schema}`.slice(0, 63) },
    channel,
    deliver,
    opts,
  );
}

function listeningSince(since: number): ListenerState {
  return { state: 'listening', since };
}

async function listenOnPostgres(
  options: pg.ClientConfig,
  channel: string,
  deliver: (payload: string | undefined) => void,
  opts: ListenOptions,
): Promise<DataEventListener> {
  const first = opts.reconnectMs ?? 500;
  let closed = false;
  let client: pg.Client | null = null;
  let pause = first;
  let timer: NodeJS.Timeout | undefined;
  let lost = false;
  let state: ListenerState = { state: 'reconnecting', since: Date.now() };

  const connect = async (): Promise<void> => {
    const c = new pg.Client(options);
    c.on('notification', (n) => n.channel === channel && deliver(n.payload));
    c.on('error', () => undefined);
    c.on('end', () => {
      if (client !== c || closed) return;
      client = null;
      lost = true;
      state = { state: 'reconnecting', since: Date.now() };
      opts.logger?.warn('data events connection lost; reconnecting');
      schedule();
    });
    await c.connect();
    await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
    if (closed) return void (await c.end().catch(() => undefined));
    const resumed = lost;
    client = c;
    state = listeningSince(Date.now());
    pause = first;
    lost = false;
    if (resumed) opts.onReconnect?.();
  };
  const schedule = () => {
    timer = setTimeout(() => {
      connect().catch((err: unknown) => {
        opts.logger?.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'data events: cannot listen; retrying',
        );
        pause = Math.min(pause * 2, 30_000);
        if (!closed) schedule();
      });
    }, pause);
    timer.unref();
  };

  await connect().catch((err: unknown) => {
    opts.logger?.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'data events: cannot listen yet; retrying',
    );
    schedule();
  });
  return {
    state: () => state,
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
