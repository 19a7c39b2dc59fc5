/**
 * Receives the data events of the service's schema: on PostgreSQL through `LISTEN` on a dedicated
 * connection (not from the pool; to the server itself past a pooler: see `Database.direct`;
 * `application_name` `emk_events:<schema>`), reconnecting after an
 * error with a growing pause (reading from replicas, an event is delivered once they have replayed
 * its commit: see `Database.caughtUp`); on the embedded database in this process through PGlite's own
 * `listen`, and served over the wire by this process through the engine thread's notifications.
 */
import pg from 'pg';
import { type Database, directOf } from '../db/client.js';
import type { Logger } from '../logger.js';
import { DATA_EVENTS_CHANNEL, type DataEvent, parseDataEvent } from './data-events.js';

/** A running listener. */
export interface DataEventListener {
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
}

/** Starts delivering the schema's data events to `onEvent`; resolves once listening. */
export async function listenForDataEvents(db: Database, onEvent: (e: DataEvent) => void, opts: ListenOptions = {}): Promise<DataEventListener> {
  let caughtUp = Promise.resolve();
  const deliver = (payload: string | undefined) => {
    const event = parseDataEvent(payload, db.schema);
    if (!event) return;
    if (!db.caughtUp) return onEvent(event);
    const wait = () => db.caughtUp!().catch(() => undefined);
    caughtUp = caughtUp
      .then(wait)
      .then(() => onEvent(event))
      .catch((err: unknown) => opts.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'data event not delivered'));
  };
  if (db.pglite) {
    const engine = db.pglite;
    const unlisten = await engine.listen(DATA_EVENTS_CHANNEL, deliver);
    return { close: async () => (engine.closed ? undefined : unlisten()) };
  }
  if (db.notifications) {
    const off = db.notifications.on(DATA_EVENTS_CHANNEL, deliver);
    return { close: async () => off() };
  }
  const pool = directOf(db).pool;
  if (!pool) throw new Error('database without its engine or pool');
  return listenOnPostgres({ ...pool.options, application_name: `emk_events:${db.schema}`.slice(0, 63) }, deliver, opts);
}

async function listenOnPostgres(options: pg.ClientConfig, deliver: (payload: string | undefined) => void, opts: ListenOptions): Promise<DataEventListener> {
  const first = opts.reconnectMs ?? 500;
  let closed = false;
  let client: pg.Client | null = null;
  let pause = first;
  let timer: NodeJS.Timeout | undefined;
  let lost = false;

  const connect = async (): Promise<void> => {
    const c = new pg.Client(options);
    c.on('notification', (n) => n.channel === DATA_EVENTS_CHANNEL && deliver(n.payload));
    c.on('error', () => undefined);
    c.on('end', () => {
      if (client !== c || closed) return;
      client = null;
      lost = true;
      opts.logger?.warn('data events connection lost; reconnecting');
      schedule();
    });
    await c.connect();
    await c.query(`LISTEN ${DATA_EVENTS_CHANNEL}`);
    if (closed) return void (await c.end().catch(() => undefined));
    const resumed = lost;
    client = c;
    pause = first;
    lost = false;
    if (resumed) opts.onReconnect?.();
  };
  const schedule = () => {
    timer = setTimeout(() => {
      connect().catch((err: unknown) => {
        opts.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'data events: cannot listen; retrying');
        pause = Math.min(pause * 2, 30_000);
        if (!closed) schedule();
      });
    }, pause);
    timer.unref();
  };

  await connect().catch((err: unknown) => {
    opts.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'data events: cannot listen yet; retrying');
    schedule();
  });
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
