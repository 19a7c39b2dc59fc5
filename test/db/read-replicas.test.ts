/**
 * DATABASE_READ_URL: the reads of both surfaces go to the read URLs, the rest to the primary. The
 * "replicas" here are other databases of the test server holding the demo data in the same schema
 * while the primary's schema is empty, so where each answer comes from shows; the API key exists on
 * the primary only. PostgreSQL leg only.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { readingFrom, REPLICA_MAX_LAG_S, type ReplicaLag } from '../../src/db/replicas.js';
import { READY_WAIT_MS } from '../../src/ops/health.js';
import { openServerDatabase } from '../../src/db/server-database.js';
import type { DataEvent } from '../../src/domain/data-events.js';
import { listenForDataEvents } from '../../src/db/listener.js';
import { notifyWindowCommitted } from '../../src/repositories/ingest/events.js';
import { createApiKey } from '../../src/security/api-keys.js';
import { createTestDatabase, DEMO_TEST_NOW, prepareTestDatabase, type TestDatabase } from '../support/db.js';
import { TEST_DATABASE_URL } from '../support/env.js';

const PRICES = '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02&resolution=native';
const PRICES_GQL = '{ prices(zones: ["FR"], from: "2025-10-01", to: "2025-10-02", resolution: NATIVE) { totalCount } }';
const WINDOW = {
  item: 'prices',
  areaKey: 'FR',
  start: new Date('2025-10-01T00:00Z'),
  end: new Date('2025-10-02T00:00Z'),
};

/** A new database on the test server, seeded with the demo data in `schema`; `drop` removes it. */
async function replicaDatabase(schema: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `replica_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  try {
    const db = await openPostgres(testConfig({ DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 2 }), url.toString());
    try {
      await prepareTestDatabase(db, 'demo');
    } finally {
      await db.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), drop };
}

describe.runIf(TEST_DATABASE_URL)('reads from DATABASE_READ_URL', () => {
  let primary: TestDatabase;
  let replicas: { url: string; drop(): Promise<void> }[] = [];
  let db: Database;
  let app: App;
  let key: string;

  const get = async (path: string, init: RequestInit = {}) => {
    const res = await app.yoga.fetch(new URL(path, 'http://test'), {
      ...init,
      headers: { 'x-api-key': key, ...init.headers },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    primary = await createTestDatabase('postgres', { seed: 'empty' });
    replicas = [await replicaDatabase(primary.db.schema), await replicaDatabase(primary.db.schema)];
    key = (await createApiKey(primary.db, 'primary only')).key;
    const config = testConfig({
      DATABASE_URL: TEST_DATABASE_URL!,
      DATABASE_READ_URL: replicas.map((r) => r.url),
      DATABASE_SCHEMA: primary.db.schema,
      API_KEY_REQUIRED: true,
      RESPONSE_CACHE: false,
      RATE_LIMIT_CAPACITY: 10_000,
    });
    db = (await openServerDatabase(config)).db;
    app = await createApp({ config, db, now: () => DEMO_TEST_NOW.getTime() });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await db?.close();
    for (const r of replicas) await r.drop();
    await primary?.close();
  });

  it("answers REST and GraphQL reads with the replicas' data, in turn from each", async () => {
    const rest = await get(PRICES);
    expect(rest.status).toBe(200);
    expect((rest.body.data as unknown[]).length).toBe(96);
    const gql = await get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PRICES_GQL }),
    });
    expect(gql.body).toEqual({ data: { prices: { totalCount: 96 } } });
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add((await db.rawQuery<{ d: string }>('SELECT current_database() AS d'))[0]!.d);
    expect([...seen].sort()).toEqual(replicas.map((r) => new URL(r.url).pathname.slice(1)).sort());
  });

  it('checks API keys on the primary', async () => {
    expect((await get(PRICES)).status).toBe(200);
    expect((await get(PRICES, { headers: { 'x-api-key': 'emk_invented' } })).status).toBe(401);
  });

  it('delivers a data event once the replicas have replayed its commit', async () => {
    let replayedYet = false;
    const behind = stub(() => [{ ok: replayedYet }]);
    const reading = readingFrom(primary.db, [behind]);
    const events: DataEvent[] = [];
    const listener = await listenForDataEvents(reading, (e) => events.push(e));
    try {
      await notifyWindowCommitted(primary.db, WINDOW);
      await new Promise((r) => setTimeout(r, 300));
      expect(events).toEqual([]);
      replayedYet = true;
      for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(events).toEqual([expect.objectContaining({ kind: 'prices', zones: ['FR'] })]);
    } finally {
      await listener.close();
    }
  });

  it('writes and listens on the primary', async () => {
    const events: DataEvent[] = [];
    const listener = await listenForDataEvents(db, (e) => events.push(e));
    try {
      await notifyWindowCommitted(primary.db, WINDOW);
      for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(events).toEqual([expect.objectContaining({ kind: 'prices', zones: ['FR'] })]);
    } finally {
      await listener.close();
    }
    const [primaryName] = await primary.db.rawQuery<{ d: string }>('SELECT current_database() AS d');
    const { primary: writer } = db as Database & { primary?: Database };
    expect(writer && (await writer.rawQuery<{ d: string }>('SELECT current_database() AS d'))[0]).toEqual(primaryName);
  });
});

/** A stand-in database answering `rawQuery` and `probeQuery` with `answer(sql)`; anything else is unused here. */
function stub(answer: (sql: string) => unknown[]): Database {
  const query = async (sql: string) => answer(sql);
  return { kind: 'postgres', schema: 's', rawQuery: query, probeQuery: query } as unknown as Database;
}

describe('waiting for the replicas to replay a data event', () => {
  const primary = stub(() => [{ lsn: '0/3000060' }]);

  it('resolves once every replica has replayed the WAL position the primary had, looking again until then', async () => {
    const looks = [0, 0];
    const replicas = looks.map((_, i) => stub(() => [{ ok: ++looks[i]! >= (i === 0 ? 1 : 4) }]));
    await readingFrom(primary, replicas).caughtUp!();
    expect(looks).toEqual([1, 4]);
  });

  it('counts a server not in recovery (no replay position) as caught up', async () => {
    await expect(readingFrom(primary, [stub(() => [{ ok: null }])]).caughtUp!()).resolves.toBeUndefined();
  });

  it('gives up after the maximum wait when a replica stays behind', async () => {
    const started = Date.now();
    await readingFrom(primary, [stub(() => [{ ok: false }])], { maxWaitMs: 150 }).caughtUp!();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("reporting the replicas' lag", () => {
  const primary = stub(() => [{ lsn: '0/3000060' }]);

  it(`counts a replica behind once the last transaction it replayed is more than ${REPLICA_MAX_LAG_S} s old while WAL awaits replay, and unreachable when it does not answer`, async () => {
    const replicas = [
      stub(() => [{ bytes: 0, age: 600 }]),
      stub(() => [{ bytes: 2048, age: 1.5 }]),
      stub(() => [{ bytes: 2048, age: REPLICA_MAX_LAG_S + 2 }]),
      stub(() => {
        throw new Error('connection refused');
      }),
    ];
    expect(await readingFrom(primary, replicas).replicaLag!()).toEqual([
      { status: 'ok', lagBytes: 0, lagSeconds: 0 },
      { status: 'ok', lagBytes: 2048, lagSeconds: 1.5 },
      { status: 'behind', lagBytes: 2048, lagSeconds: REPLICA_MAX_LAG_S + 2 },
      { status: 'unreachable' },
    ]);
  });
});

describe("/readyz's replicas section", () => {
  const readyz = async (replicaLag: () => Promise<ReplicaLag[]>) => {
    const t = await createTestDatabase('pglite', { seed: 'empty' });
    const app = await createApp({
      config: testConfig({}),
      db: { ...t.db, replicaLag },
      now: () => DEMO_TEST_NOW.getTime(),
    });
    try {
      const started = Date.now();
      const res = await app.yoga.fetch(new URL('/readyz', 'http://test'));
      return { status: res.status, body: (await res.json()) as unknown, ms: Date.now() - started };
    } finally {
      await app.close();
      await t.close();
    }
  };

  it("gives each replica's lag beside a ready status, a replica behind leaving the instance ready", async () => {
    const lags: ReplicaLag[] = [
      { status: 'ok', lagBytes: 0, lagSeconds: 0 },
      { status: 'behind', lagBytes: 4096, lagSeconds: 9 },
    ];
    expect(await readyz(async () => lags)).toMatchObject({
      status: 200,
      body: { status: 'ready', detail: 'ok', replicas: lags },
    });
  });

  it('answers without the section, in time, when the lag check does not answer', async () => {
    const answer = await readyz(() => new Promise<never>(() => undefined));
    expect(answer).toMatchObject({ status: 200, body: { status: 'ready', detail: 'ok' } });
    expect(answer.body).not.toHaveProperty('replicas');
    expect(answer.ms).toBeLessThan(READY_WAIT_MS + 1_000);
  });
});
