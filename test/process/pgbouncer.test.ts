/**
 * The app behind a real PgBouncer in transaction mode (Debian's 1.18 running deploy/pgbouncer.ini,
 * started by bench/pgbouncer.ts on a free loopback port):
 * DATABASE_URL points at the pooler, DATABASE_DIRECT_URL at the server, in a schema other than
 * `public`. The pooler shares two server connections between all of the app's connections, so any
 * session state the app relied on (search_path, statement_timeout, named prepared statements,
 * LISTEN) would surface. PostgreSQL leg only; without pgbouncer the tests skip, except under CI=true
 * where they fail.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { prepareDatabase } from '../../src/bootstrap.js';
import { type Config, testConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { cancelRequest } from '../../src/db/pooler.js';
import { openServerDatabase } from '../../src/db/server-database.js';
import type { DataEvent } from '../../src/domain/data-events.js';
import { listenForDataEvents } from '../../src/db/listener.js';
import { elect } from '../../src/db/leader.js';
import { createLogger } from '../../src/logger.js';
import { notifyWindowCommitted } from '../../src/repositories/ingest/events.js';
import { inTransaction } from '../../src/db/executor.js';
import { createTestDatabase, DEMO_TEST_NOW, type TestDatabase } from '../support/db.js';
import { CI, TEST_DATABASE_URL } from '../support/env.js';
import { type Bouncer, PGBOUNCER, pgbouncerAvailable, startPgbouncer } from '../../bench/pgbouncer.js';
import { fetchOn } from '../support/app.js';

const MISSING = `pgbouncer not found at ${PGBOUNCER} (apt-get install pgbouncer): PgBouncer tests skipped`;
const LIMIT_MS = 4_000;
/** Requests in flight at once. */
const CONCURRENCY = 24;
const WINDOW = {
  item: 'prices',
  areaKey: 'FR',
  start: new Date('2025-10-01T00:00Z'),
  end: new Date('2025-10-02T00:00Z'),
};

const READS: readonly (string | { query: string })[] = [
  '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02&resolution=native',
  '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-08',
  '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-11-01&resolution=1W',
  '/api/v1/zones',
  {
    query:
      '{ prices(zones: ["FR"], from: "2025-10-01", to: "2025-10-02", resolution: NATIVE, first: 10) { totalCount edges { node { datetime priceEurMwh } } } }',
  },
  {
    query:
      '{ prices(zones: ["DE_LU"], from: "2025-11-01T00:00", to: "2025-11-02T00:00", resolution: HOURLY) { totalCount } }',
  },
  { query: '{ flows(first: 50) { edges { node { datetime from { code } to { code } } } } }' },
];

const silent = createLogger({ LOG_LEVEL: 'silent' });

describe.runIf(TEST_DATABASE_URL)('the app behind PgBouncer in transaction mode', () => {
  const available = pgbouncerAvailable();
  let seeded: TestDatabase;
  let bouncer: Bouncer;
  let ignoring: Bouncer;
  let config: Config;
  let db: Database;
  let app: App;
  let direct: App;

  beforeAll(async () => {
    if (!available) {
      if (CI) throw new Error(`${MISSING.replace('skipped', 'cannot run')}; CI=true requires them`);
      return;
    }
    seeded = await createTestDatabase('postgres', { seed: 'demo' });
    bouncer = await startPgbouncer(TEST_DATABASE_URL!);
    ignoring = await startPgbouncer(TEST_DATABASE_URL!, {
      extra: 'ignore_startup_parameters = extra_float_digits, options',
    });
    const common = {
      DATABASE_SCHEMA: seeded.db.schema,
      RESPONSE_CACHE: false,
      REQUEST_TIMEOUT_MS: LIMIT_MS,
      RATE_LIMIT_CAPACITY: 10_000,
    };
    config = testConfig({
      ...common,
      DATABASE_URL: bouncer.url,
      DATABASE_DIRECT_URL: TEST_DATABASE_URL!,
      DATABASE_POOL_SIZE: 8,
      MIGRATE_ON_START: true,
    });
    db = (await openServerDatabase(config)).db;
    await prepareDatabase(db, config, silent, DEMO_TEST_NOW);
    app = await createApp({ config, db, logger: silent, now: () => DEMO_TEST_NOW.getTime() });
    direct = await createApp({
      config: testConfig(common),
      db: seeded.db,
      logger: silent,
      now: () => DEMO_TEST_NOW.getTime(),
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await direct?.close();
    await db?.close();
    await seeded?.close();
    await bouncer?.stop();
    await ignoring?.stop();
  });

  it.runIf(available || CI)(
    'refuses to start with DATABASE_URL at the pooler and no DATABASE_DIRECT_URL, naming the setting',
    async () => {
      for (const pooler of [bouncer, ignoring]) {
        const alone = testConfig({ DATABASE_URL: pooler.url, DATABASE_SCHEMA: seeded.db.schema });
        await expect(openServerDatabase(alone).then(({ db: opened }) => opened.close())).rejects.toThrow(
          /DATABASE_DIRECT_URL/,
        );
      }
    },
  );

  it.runIf(available || CI)(
    'opens the command-line tools on DATABASE_DIRECT_URL, and refuses them a pooler alone',
    async () => {
      const tool = await openDatabase(
        testConfig({
          DATABASE_URL: ignoring.url,
          DATABASE_DIRECT_URL: TEST_DATABASE_URL!,
          DATABASE_SCHEMA: seeded.db.schema,
        }),
      );
      await tool.close();
      await expect(
        openDatabase(testConfig({ DATABASE_URL: ignoring.url, DATABASE_SCHEMA: seeded.db.schema })),
      ).rejects.toThrow(/set DATABASE_DIRECT_URL/);
    },
  );

  it.runIf(available || CI)('starts on DATABASE_URL alone when it leads to the server itself', async () => {
    const opened = await openServerDatabase(
      testConfig({ DATABASE_URL: TEST_DATABASE_URL!, DATABASE_SCHEMA: seeded.db.schema }),
    );
    try {
      expect(opened.db.direct).toBeUndefined();
    } finally {
      await opened.db.close();
    }
  });

  it.runIf(available || CI)("reads the schema's data on both surfaces, as a direct connection does", async () => {
    for (const read of READS) {
      const [pooled, straight] = await Promise.all([fetchOn(app, read), fetchOn(direct, read)]);
      expect(pooled.status, JSON.stringify(read)).toBe(200);
      expect(pooled.body).toBe(straight.body);
      expect(pooled.body).not.toMatch(/"errors"/);
    }
  });

  it.runIf(available || CI)(
    `answers 300 mixed requests, ${CONCURRENCY} at a time, without an error`,
    async () => {
      const statuses: { status: number; body: string }[] = [];
      let sent = 0;
      const worker = async () => {
        while (sent < 300) statuses.push(await fetchOn(app, READS[sent++ % READS.length]!));
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(statuses).toHaveLength(300);
      const failed = statuses.filter((r) => r.status !== 200 || r.body.includes('"errors"'));
      expect(failed.slice(0, 3)).toEqual([]);
      expect(failed).toHaveLength(0);
    },
    60_000,
  );

  it.runIf(available || CI)(
    'ends a statement at REQUEST_TIMEOUT_MS, and a request blocked in the server with a 504',
    async () => {
      const started = Date.now();
      await expect(db.rawQuery('SELECT pg_sleep(30)')).rejects.toThrow(/statement timeout/);
      expect(Date.now() - started).toBeLessThan(20_000);
      const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE "${seeded.db.schema}".price_point IN ACCESS EXCLUSIVE MODE`);
        expect((await fetchOn(app, READS[0]!)).status).toBe(504);
        expect(Date.now() - started).toBeLessThan(20_000);
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
      expect((await fetchOn(app, READS[0]!)).status).toBe(200);
    },
  );

  it.runIf(available || CI)(
    'cancels statements through the pooler without bringing it down (PgBouncer 1.18 dies when a cancelling client hangs up first)',
    async () => {
      for (let i = 0; i < 5; i++) {
        const client = await db.pool!.connect();
        try {
          const sleeping = client.query('SELECT pg_sleep(2)').then(
            () => 'finished',
            (error: Error) => error.message,
          );
          await new Promise((r) => setTimeout(r, 100));
          await cancelRequest(client);
          expect(await sleeping).toMatch(/cancel/);
        } finally {
          client.release();
        }
      }
      expect(bouncer.log()).not.toMatch(/FATAL/);
      expect(await db.rawQuery('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    },
  );

  it.runIf(available || CI)(
    'elects one ingest leader among instances on the pooler (the lock on the direct connection)',
    async () => {
      const lead = (signal: AbortSignal) =>
        new Promise<void>((done) =>
          signal.aborted ? done() : signal.addEventListener('abort', () => done(), { once: true }),
        );
      const elections = [
        elect(db, { lead, retryMs: 50, leaseMs: 10_000 }),
        elect(db, { lead, retryMs: 50, leaseMs: 10_000 }),
        elect(db, { lead, retryMs: 50, leaseMs: 10_000 }),
      ];
      try {
        for (let i = 0; i < 100 && !elections.some((e) => e.isLeader()); i++)
          await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 300));
        expect(elections.filter((e) => e.isLeader())).toHaveLength(1);
      } finally {
        await Promise.all(elections.map((e) => e.close()));
      }
    },
  );

  it.runIf(available || CI)(
    'delivers the data events committed through the pooler (LISTEN on the direct connection)',
    async () => {
      const events: DataEvent[] = [];
      const listener = await listenForDataEvents(db, (e) => events.push(e));
      try {
        await inTransaction(db, (sql) => notifyWindowCommitted(sql, WINDOW));
        for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        expect(events).toEqual([expect.objectContaining({ kind: 'prices', zones: ['FR'] })]);
      } finally {
        await listener.close();
      }
    },
  );
});
