/**
 * DATABASE_READ_URL at a real streaming replica: a hot standby of the test server made by
 * deploy/replica.sh (pg_basebackup -R, its own port and directory), started before the test's
 * schema is created on the primary, so the schema, the demo data and every later write reach the
 * replica by replication only. PostgreSQL leg only; without pg_basebackup the tests skip, except
 * under CI=true where they fail.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { REPLICA_MAX_LAG_S } from '../../src/db/replicas.js';
import { openServerDatabase } from '../../src/db/server-database.js';
import { createLogger } from '../../src/logger.js';
import { notifyWindowCommitted } from '../../src/repositories/ingest/events.js';
import { loadPrices } from '../../src/repositories/ingest/load.js';
import { inTransaction } from '../../src/db/executor.js';
import { createTestDatabase, DEMO_TEST_NOW, type TestDatabase } from '../support/db.js';
import { CI, TEST_DATABASE_URL } from '../support/env.js';
import { type Replica, replicaToolsAvailable, startReplica } from '../support/replica.js';
import { fetchOn } from '../support/app.js';

const MISSING = 'pg_basebackup not found (apt-get install postgresql-client): streaming replica tests skipped';
const PRICES = '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02&resolution=native';
const PRICES_GQL = {
  query:
    '{ prices(zones: ["FR"], from: "2025-10-01", to: "2025-10-02", resolution: NATIVE) { totalCount edges { node { datetime priceEurMwh } } } }',
};
const WINDOW = {
  item: 'prices',
  areaKey: 'FR',
  start: new Date('2025-10-01T00:00Z'),
  end: new Date('2025-10-02T00:00Z'),
};
/** Longest /readyz may take, ms. */
const READYZ_MAX_MS = 2_000;
/** Longest the standby may take to replay the test's schema and demo data (with the WAL of every other test on the server), ms. */
const REPLAY_MAX_MS = 150_000;

const silent = createLogger({ LOG_LEVEL: 'silent' });

interface ReplicaReport {
  readonly status: string;
  readonly lagBytes?: number;
  readonly lagSeconds?: number;
}

describe.runIf(TEST_DATABASE_URL)('the app reading from a real streaming replica', () => {
  const available = replicaToolsAvailable();
  let replica: Replica | undefined;
  let primary: TestDatabase;
  let db: Database;
  let app: App;
  let direct: App;

  const readyz = async () => {
    const started = Date.now();
    const res = await fetchOn(app, '/readyz');
    return {
      ...res,
      ms: Date.now() - started,
      json: JSON.parse(res.body) as { status: string; replicas?: ReplicaReport[] },
    };
  };
  const onReplica = async <T extends object>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: replica!.url });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  /** Waits until the standby has replayed what the primary had written when called: a whole seed can take longer than the app's wait. */
  const replayed = async () => {
    const [{ lsn }] = (await primary.db.rawQuery<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')) as [
      { lsn: string },
    ];
    const started = Date.now();
    for (; Date.now() - started < REPLAY_MAX_MS; await new Promise((r) => setTimeout(r, 50))) {
      const [row] = await onReplica<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
      if (row?.ok) return Date.now() - started;
    }
    const [at] = await onReplica<{ received: string; replayed: string }>(
      'SELECT pg_last_wal_receive_lsn()::text AS received, pg_last_wal_replay_lsn()::text AS replayed',
    );
    throw new Error(
      `the standby did not replay ${lsn} within ${REPLAY_MAX_MS} ms (received ${at?.received}, replayed ${at?.replayed}); its log:\n${replica!.log()}`,
    );
  };

  beforeAll(async () => {
    if (!available) {
      if (CI) throw new Error(`${MISSING.replace('skipped', 'cannot run')}; CI=true requires them`);
      return;
    }
    replica = await startReplica(TEST_DATABASE_URL!);
    primary = await createTestDatabase('postgres', { seed: 'demo' });
    const config = testConfig({
      DATABASE_URL: TEST_DATABASE_URL!,
      DATABASE_READ_URL: [replica.url],
      DATABASE_SCHEMA: primary.db.schema,
      RATE_LIMIT_CAPACITY: 10_000,
    });
    console.log(`streaming replica: the demo schema replayed ${await replayed()} ms after its seed`);
    db = (await openServerDatabase(config)).db;
    app = await createApp({ config, db, logger: silent, now: () => DEMO_TEST_NOW.getTime() });
    direct = await createApp({
      config: testConfig({ DATABASE_SCHEMA: primary.db.schema, RESPONSE_CACHE: false }),
      db: primary.db,
      logger: silent,
      now: () => DEMO_TEST_NOW.getTime(),
    });
  }, 300_000);

  afterAll(async () => {
    try {
      await app?.close();
      await direct?.close();
      await db?.close();
      await primary?.close();
    } finally {
      await replica?.stop();
    }
  }, 120_000);

  it.runIf(available || CI)(
    "answers from the standby what the primary holds once it has replayed the primary's WAL",
    async () => {
      expect(await db.rawQuery<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')).toEqual([
        { standby: true },
      ]);
      for (const read of [PRICES, PRICES_GQL, '/api/v1/zones']) {
        const [fromReplica, fromPrimary] = await Promise.all([fetchOn(app, read), fetchOn(direct, read)]);
        expect(fromReplica.status, JSON.stringify(read)).toBe(200);
        expect(fromReplica.body).toBe(fromPrimary.body);
      }
    },
  );

  it.runIf(available || CI)(
    'serves a window written on the primary right after its data event, never the answer cached before it',
    async () => {
      await replayed();
      const before = await fetchOn(app, PRICES);
      const beforeGql = await fetchOn(app, PRICES_GQL);
      expect((await fetchOn(app, PRICES)).body).toBe(before.body);
      expect(before.body).not.toContain('4321.5');
      const [fr] = await primary.db.rawQuery<{ id: number }>('SELECT id FROM zone WHERE code = $1', ['FR']);
      const version = app.version.current;
      await inTransaction(primary.db, async (sql) => {
        await loadPrices(sql, [
          {
            zoneId: fr!.id,
            ts: new Date('2025-10-01T10:00:00Z'),
            periodMinutes: 15,
            priceEurMwh: 4321.5,
            interpolated: false,
            source: 'entsoe',
          },
        ]);
        await notifyWindowCommitted(sql, WINDOW);
      });
      const committed = performance.now();
      while (app.version.current === version && performance.now() - committed < 10_000)
        await new Promise((r) => setTimeout(r, 1));
      const delayMs = performance.now() - committed;
      console.log(`streaming replica: caches dropped ${delayMs.toFixed(1)} ms after the commit`);
      expect(app.version.current).toBeGreaterThan(version);
      const after = await fetchOn(app, PRICES);
      expect(after.status).toBe(200);
      expect(after.body).toContain('4321.5');
      expect(after.body).toBe((await fetchOn(direct, PRICES)).body);
      expect((await fetchOn(app, PRICES_GQL)).body).not.toBe(beforeGql.body);
      expect((await fetchOn(app, PRICES_GQL)).body).toContain('4321.5');
    },
    REPLAY_MAX_MS + 30_000,
  );

  it.runIf(available || CI)(
    "holds a data event while the standby's replay is paused, then drops the caches once it has replayed the write",
    async () => {
      await replayed();
      const before = await fetchOn(app, PRICES);
      const [fr] = await primary.db.rawQuery<{ id: number }>('SELECT id FROM zone WHERE code = $1', ['FR']);
      const version = app.version.current;
      await onReplica('SELECT pg_wal_replay_pause()');
      let resumed = 0;
      try {
        await inTransaction(primary.db, async (sql) => {
          await loadPrices(sql, [
            {
              zoneId: fr!.id,
              ts: new Date('2025-10-01T11:00:00Z'),
              periodMinutes: 15,
              priceEurMwh: 5432.5,
              interpolated: false,
              source: 'entsoe',
            },
          ]);
          await notifyWindowCommitted(sql, WINDOW);
        });
        await new Promise((r) => setTimeout(r, 1_000));
        expect(app.version.current).toBe(version);
        expect((await fetchOn(app, PRICES)).body).toBe(before.body);
      } finally {
        resumed = performance.now();
        await onReplica('SELECT pg_wal_replay_resume()');
      }
      while (app.version.current === version && performance.now() - resumed < 10_000)
        await new Promise((r) => setTimeout(r, 1));
      console.log(
        `streaming replica: caches dropped ${(performance.now() - resumed).toFixed(1)} ms after replay was asked to resume`,
      );
      expect(app.version.current).toBeGreaterThan(version);
      expect((await fetchOn(app, PRICES)).body).toContain('5432.5');
    },
    REPLAY_MAX_MS + 30_000,
  );

  it.runIf(available || CI)(
    `reports the standby's lag in /readyz within ${READYZ_MAX_MS} ms, behind past ${REPLICA_MAX_LAG_S} s without replay, ready throughout`,
    async () => {
      const caughtUp = await readyz();
      expect(caughtUp.status).toBe(200);
      expect(caughtUp.ms).toBeLessThan(READYZ_MAX_MS);
      expect(caughtUp.json).toMatchObject({
        status: 'ready',
        replicas: [{ status: 'ok', lagBytes: expect.any(Number), lagSeconds: expect.any(Number) }],
      });
      await onReplica('SELECT pg_wal_replay_pause()');
      try {
        await primary.db.rawQuery('SELECT txid_current()');
        let behind = caughtUp;
        const paused = Date.now();
        while (
          behind.json.replicas?.[0]?.status !== 'behind' &&
          Date.now() - paused < (REPLICA_MAX_LAG_S + 5) * 1_000
        ) {
          await new Promise((r) => setTimeout(r, 250));
          behind = await readyz();
          expect(behind.ms).toBeLessThan(READYZ_MAX_MS);
          expect(behind.json.status).toBe('ready');
        }
        expect(behind.json.replicas).toEqual([
          { status: 'behind', lagBytes: expect.any(Number), lagSeconds: expect.any(Number) },
        ]);
        expect(behind.json.replicas![0]!.lagBytes).toBeGreaterThan(0);
        expect(behind.json.replicas![0]!.lagSeconds).toBeGreaterThan(REPLICA_MAX_LAG_S);
      } finally {
        await onReplica('SELECT pg_wal_replay_resume()');
      }
      let again = await readyz();
      for (let i = 0; i < 50 && again.json.replicas?.[0]?.status !== 'ok'; i++) again = await readyz();
      expect(again.json.replicas).toEqual([
        { status: 'ok', lagBytes: expect.any(Number), lagSeconds: expect.any(Number) },
      ]);
    },
    60_000,
  );
});
