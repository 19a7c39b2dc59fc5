/** The PostgreSQL listener survives the loss of its connection: it reconnects and delivers again. */
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { DataEvent } from '../../src/domain/data-events.js';
import { type DataEventListener, listenForDataEvents } from '../../src/db/listener.js';
import { notifyWindowCommitted } from '../../src/repositories/ingest/events.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_DATABASE_URL } from '../support/env.js';

const WINDOW = {
  item: 'prices',
  areaKey: 'ES',
  start: new Date('2025-10-01T00:00Z'),
  end: new Date('2025-10-02T00:00Z'),
};

describe.runIf(TEST_DATABASE_URL)('the data events listener on PostgreSQL', () => {
  let db!: Database;
  let listener: DataEventListener;
  const events: DataEvent[] = [];
  let reconnections = 0;

  it.override({ backend: 'postgres', seed: 'empty' });
  const block = blockSetup(async () => {
    await listener?.close();
  });
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      listener = await listenForDataEvents(db, (e) => events.push(e), {
        reconnectMs: 50,
        onReconnect: () => reconnections++,
      });
    }),
  );

  const waitFor = async (n: number) => {
    for (let i = 0; i < 100 && events.length < n; i++) await new Promise((r) => setTimeout(r, 20));
    return events.length;
  };

  it('reconnects after its session is terminated, says so (caches drop what they hold) and delivers the next event', async () => {
    await notifyWindowCommitted(db, WINDOW);
    expect(await waitFor(1)).toBe(1);
    expect(reconnections).toBe(0);
    expect(listener.state().state).toBe('listening');
    const killed = await db.rawQuery<{ ok: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1`,
      [`emk_events:${db.schema}`],
    );
    expect(killed).toEqual([{ ok: true }]);
    let delivered = 1;
    for (let i = 0; i < 20 && delivered < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await notifyWindowCommitted(db, WINDOW);
      delivered = await waitFor(2);
    }
    expect(delivered).toBeGreaterThanOrEqual(2);
    expect(events[1]).toMatchObject({ kind: 'prices', zones: ['ES'] });
    expect(reconnections).toBe(1);
    expect(listener.state().state).toBe('listening');
  });
});

describe('the data events listener without its database', () => {
  it('tells it is reconnecting, and since when, while it cannot listen', async () => {
    const { createServer } = await import('node:net');
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as { port: number };
    await new Promise((done) => closed.close(done));
    const before = Date.now();
    const unreachable = {
      schema: 'public',
      pool: { options: { host: '127.0.0.1', port, user: 'nobody', database: 'none' } },
    } as unknown as Database;
    const listener = await listenForDataEvents(unreachable, () => undefined, { reconnectMs: 60_000 });
    try {
      expect(listener.state()).toEqual({ state: 'reconnecting', since: expect.any(Number) });
      expect(listener.state().since).toBeGreaterThanOrEqual(before);
    } finally {
      await listener.close();
    }
  });
});
