import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { createTestDatabase, DEMO_TEST_NOW, type TestDatabase } from '../support/db.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { appOver } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { createApiKey } from '../../src/security/api-keys.js';

const POOL_SIZE = 2;
const REQUESTS = 6;
const PRICES_REST = '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02&resolution=native';
const PRICES_GQL = JSON.stringify({
  query:
    '{ prices(zones: ["FR"], from: "2025-10-01", to: "2025-10-02", resolution: NATIVE, first: 10) { totalCount } }',
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Served {
  readonly status: number;
  readonly text: string;
}

/** An app over the seeded schema with its own pool of {@link POOL_SIZE} connections. */
async function openApp(schema: string, timeoutMs: number): Promise<{ app: App; db: Database }> {
  const config = testConfig({ DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: POOL_SIZE, REQUEST_TIMEOUT_MS: timeoutMs });
  const db = await openPostgres(config, TEST_DATABASE_URL!);
  return { app: await createApp({ config, db, now: () => DEMO_TEST_NOW.getTime() }), db };
}

/** A ready `/readyz` body of an app whose data events listener listens. */
const READY_LISTENING = { status: 'ready', detail: 'ok', events: { state: 'listening', since: expect.any(String) } };

async function send(app: App, path: string, init: RequestInit = {}): Promise<Served> {
  const res = await app.yoga.fetch(new URL(path, 'http://test'), init);
  return { status: res.status, text: await res.text() };
}

/** Half REST, half GraphQL: more requests than the pool has connections. */
function fireRequests(app: App): Promise<Served>[] {
  return Array.from({ length: REQUESTS }, (_, i) =>
    i % 2 === 0
      ? send(app, PRICES_REST)
      : send(app, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: PRICES_GQL }),
  );
}

/** Waits (up to 3 s) until `waiting` waiters are queued for a connection, or none when 0. */
async function untilWaiting(db: Database, waiting: number): Promise<void> {
  const reached = () => (waiting === 0 ? db.pool!.waitingCount === 0 : db.pool!.waitingCount >= waiting);
  const deadline = Date.now() + 3_000;
  while (!reached() && Date.now() < deadline) await sleep(20);
  expect(reached()).toBe(true);
}

describe.runIf(TEST_DATABASE_URL)('a saturated connection pool on PostgreSQL', () => {
  let seeded: TestDatabase;
  let locker: pg.Client;
  const opened: { app: App; db: Database }[] = [];

  beforeAll(async () => {
    seeded = await createTestDatabase('postgres', { seed: 'demo' });
    locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
  });
  afterAll(async () => {
    for (const { app, db } of opened) {
      await app.close();
      await db.close();
    }
    await locker?.end();
    await seeded?.close();
  });

  /** Holds every pooled connection: the requests' statements wait in the server for this lock. */
  const lockPrices = async () => {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${seeded.db.schema}".price_point IN ACCESS EXCLUSIVE MODE`);
  };

  it('keeps /readyz at 200 and serves every queued request once connections free up, none told the database is down', async () => {
    const t = await openApp(seeded.db.schema, 8_000);
    opened.push(t);
    await lockPrices();
    const fired = Date.now();
    let served: Served[];
    try {
      const pending = fireRequests(t.app);
      await untilWaiting(t.db, REQUESTS - POOL_SIZE);

      const asked = Date.now();
      const ready = await send(t.app, '/readyz');
      expect({ status: ready.status, body: JSON.parse(ready.text) as unknown }).toEqual({
        status: 200,
        body: READY_LISTENING,
      });
      expect(Date.now() - asked).toBeLessThan(1_000);

      await sleep(6_000 - (Date.now() - fired));
      expect(t.db.pool!.waitingCount).toBeGreaterThanOrEqual(REQUESTS - POOL_SIZE);
      await locker.query('ROLLBACK');
      served = await Promise.all(pending);
    } finally {
      await locker.query('ROLLBACK');
    }
    for (const r of served) expect(r.text).not.toMatch(/unavailable/i);
    expect(served.map((r) => r.status)).toEqual(Array(REQUESTS).fill(200));
  }, 20_000);

  it('answers 504 TIMEOUT to requests still waiting for a connection at their time limit, then serves again', async () => {
    const t = await openApp(seeded.db.schema, 1_000);
    opened.push(t);
    await lockPrices();
    let served: Served[];
    try {
      const pending = fireRequests(t.app);
      await untilWaiting(t.db, REQUESTS - POOL_SIZE);
      expect((await send(t.app, '/readyz')).status).toBe(200);
      served = await Promise.all(pending);
    } finally {
      await locker.query('ROLLBACK');
    }
    for (const r of served) {
      expect(r.status).toBe(504);
      expect(r.text).toMatch(/1 s time limit/);
    }
    await untilWaiting(t.db, 0);
    expect(t.db.pool!.totalCount).toBeLessThanOrEqual(POOL_SIZE);
    expect((await send(t.app, PRICES_REST)).status).toBe(200);
    expect(t.db.pool!.waitingCount).toBe(0);
  }, 20_000);

  it('counts the API key lookup against the same time limit: a keyed request waiting for a connection gets 504 at its limit, not later', async () => {
    const { key } = await createApiKey(seeded.db, 'saturation');
    const t = await openApp(seeded.db.schema, 1_000);
    opened.push(t);
    await lockPrices();
    let keyed: Served;
    let took: number;
    try {
      const pending = fireRequests(t.app);
      await untilWaiting(t.db, REQUESTS - POOL_SIZE);
      const started = Date.now();
      keyed = await send(t.app, PRICES_REST, { headers: { 'x-api-key': key } });
      took = Date.now() - started;
      await Promise.all(pending);
    } finally {
      await locker.query('ROLLBACK');
    }
    expect(keyed.status).toBe(504);
    expect(keyed.text).toMatch(/1 s time limit/);
    expect(took).toBeLessThan(1_600);
  }, 20_000);
});

describe.runIf(TEST_DATABASE_URL)('readiness while PostgreSQL is slow to answer the check', () => {
  it('answers within 2 s, 200 with status busy, and ready again once the database answers', async () => {
    const seeded = await createTestDatabase('postgres', { seed: 'empty' });
    const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
    const { app, db } = await openApp(seeded.db.schema, 8_000);
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE "${seeded.db.schema}"._prisma_migrations IN ACCESS EXCLUSIVE MODE`);
      const asked = Date.now();
      const busy = await send(app, '/readyz');
      expect(Date.now() - asked).toBeLessThan(2_000);
      expect({ status: busy.status, body: (JSON.parse(busy.text) as { status: string }).status }).toEqual({
        status: 200,
        body: 'busy',
      });
      await sleep(5_500);
      expect((await send(app, '/readyz')).status).toBe(200);
      await locker.query('ROLLBACK');
      await sleep(100);
      const again = await send(app, '/readyz');
      expect({ status: again.status, body: JSON.parse(again.text) as unknown }).toEqual({
        status: 200,
        body: READY_LISTENING,
      });
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
      await app.close();
      await db.close();
      await seeded.close();
    }
  }, 20_000);
});

describe('readiness while the embedded database is busy', () => {
  it.override({ backend: 'pglite', seed: 'empty' });

  it('answers 200 once the running statement ends, not 503', async ({ db }) => {
    const t = await appOver(db);
    try {
      const busy = t.db.pglite!.transaction(() => sleep(1_000));
      const ready = await t.get('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        detail: 'ok',
        events: { state: 'listening', since: expect.any(String) },
      });
      await busy;
    } finally {
      await t.close();
    }
  });
});
