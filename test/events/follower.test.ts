/**
 * The follower inside the server (INGEST_FOLLOW): it ingests from the upstream, its committed
 * windows reach subscribers, /readyz and /metrics report the last success and lag per item; with
 * several instances on one PostgreSQL exactly one follows, and another takes over when it dies.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { type Election, elect } from '../../src/db/leader.js';
import { createTestDatabase, TEST_BACKENDS, type TestDatabase } from '../support/db.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { killStarted, start } from '../support/processes.js';
import { type FakeUpstream, startFakeUpstream, TOKEN } from '../ingest-job/fake-upstream.js';
import { a44Days, EIC, fakeClient, key } from '../ingest-job/helpers.js';

const DAY = 86_400_000;

async function until<T>(ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(TEST_BACKENDS)('the in-server follower on %s', (kind) => {
  let t: TestDatabase;
  let fake: FakeUpstream;
  let app: App;
  let purges: Server;
  const purged: { method: string; tags: string }[] = [];

  beforeAll(async () => {
    t = await createTestDatabase(kind, { seed: 'empty' });
    fake = await startFakeUpstream();
    const yesterday = new Date(Math.floor(Date.now() / DAY) * DAY - DAY).toISOString().replace(':00.000Z', 'Z');
    fake.serve(key('A44', EIC.ES, EIC.ES), { body: a44Days(EIC.ES, yesterday, 2) });
    purges = createServer((req, res) => {
      purged.push({ method: req.method ?? '', tags: String(req.headers['surrogate-key']) });
      res.end();
    });
    await new Promise<void>((done) => purges.listen(0, '127.0.0.1', done));
    const CACHE_PURGE_URL = `http://127.0.0.1:${(purges.address() as AddressInfo).port}/`;
    const config = testConfig({
      INGEST_FOLLOW: true,
      ENTSOE_SECURITY_TOKEN: TOKEN,
      ENTSOE_API_URL: fake.url,
      CACHE_PURGE_URL,
    });
    app = await createApp({
      config,
      db: t.db,
      follower: { client: fakeClient(fake).client, selection: { what: ['prices'], zones: ['ES'] } },
    });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await t?.close();
    await new Promise((done) => purges?.close(done));
  });

  it('purges the shared cache of the tags of each window it commits (CACHE_PURGE_URL)', async () => {
    await until(10_000, async () => (purged.length ? true : undefined));
    expect(purged[0]).toEqual({
      method: 'PURGE',
      tags: expect.stringMatching(/^prices:ES flows:ES prices:all .*flows:all$/),
    });
  });

  it('ingests, and /readyz reports it leads with the last success and lag of prices', async () => {
    const body = await until(10_000, async () => {
      const b = (await (await app.yoga.fetch('http://test/readyz')).json()) as any;
      return b.ingest?.items?.prices && b.ingest.cycles?.last_ok !== null ? b : undefined;
    });
    expect(body).toMatchObject({
      status: 'ready',
      ingest: { following: true, leader: true, cycles: { last_ok: true, consecutive_failures: 0, failing: false } },
    });
    expect(Date.now() - Date.parse(body.ingest.items.prices.last_success)).toBeLessThan(60_000);
    expect(body.ingest.items.prices.lag_seconds).toBeLessThan(60);
    const stored = await t.db.rawQuery<{ n: number }>(`SELECT count(*)::int AS n FROM price_point`);
    expect(stored[0]!.n).toBeGreaterThan(0);
  });

  it('exposes the leader flag, last success and lag per item in /metrics', async () => {
    const text = await (await app.yoga.fetch('http://test/metrics')).text();
    expect(text).toMatch(/^ingest_follower_leader 1$/m);
    expect(text).toMatch(/^ingest_last_success_timestamp_seconds\{item="prices"\} \d+/m);
    expect(text).toMatch(/^ingest_lag_seconds\{item="prices"\} \d+$/m);
  });
});

describe('the in-server follower with its upstream down', () => {
  let t: TestDatabase;
  let app: App;

  beforeAll(async () => {
    t = await createTestDatabase('pglite', { seed: 'empty' });
    const gone = await startFakeUpstream();
    await gone.close();
    const config = testConfig({ INGEST_FOLLOW: true, ENTSOE_SECURITY_TOKEN: TOKEN, ENTSOE_API_URL: gone.url });
    app = await createApp({
      config,
      db: t.db,
      follower: { client: fakeClient(gone).client, selection: { what: ['prices'], zones: ['ES'] } },
    });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('stays ready, /readyz reporting the failed cycle, and /metrics counting it', async () => {
    const res = await until(10_000, async () => {
      const r = await app.yoga.fetch('http://test/readyz');
      const b = (await r.json()) as any;
      return b.ingest?.cycles?.last_at ? { status: r.status, body: b } : undefined;
    });
    expect(res).toMatchObject({
      status: 200,
      body: {
        status: 'ready',
        ingest: { leader: true, cycles: { last_ok: false, consecutive_failures: 1, failing: false } },
      },
    });
    expect(await (await app.yoga.fetch('http://test/metrics')).text()).toMatch(/^ingest_follower_failed_cycles 1$/m);
  });
});

describe.runIf(TEST_DATABASE_URL)('leader election on one PostgreSQL', () => {
  let t: TestDatabase;
  let dbs: Database[] = [];
  let elections: Election[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('postgres', { seed: 'empty' });
    dbs = await Promise.all(
      [1, 2].map(() =>
        openPostgres(testConfig({ DATABASE_SCHEMA: t.db.schema, DATABASE_POOL_SIZE: 1 }), TEST_DATABASE_URL!),
      ),
    );
  });
  afterEach(async () => {
    await Promise.all(elections.map((e) => e.close()));
    elections = [];
  });
  afterAll(async () => {
    await Promise.all(dbs.map((d) => d.close()));
    await t?.close();
  });

  const leadUntilAborted = (signal: AbortSignal) =>
    new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

  const killLeaderSession = () =>
    t.db.rawQuery<{ ok: boolean }>(
      `SELECT pg_terminate_backend(l.pid) AS ok FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
         AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext('ingest_follow_leader:' || current_schema())::bigint`,
    );

  it('elects exactly one leader, and the other takes over within the retry interval when the leader stops', async () => {
    elections = dbs.map((db) => elect(db, { lead: leadUntilAborted, retryMs: 200, leaseMs: 10_000 }));
    const first = await until(3_000, async () => elections.find((e) => e.isLeader()));
    await new Promise((r) => setTimeout(r, 500));
    expect(elections.filter((e) => e.isLeader())).toHaveLength(1);
    await first.close();
    const next = await until(1_000, async () => elections.find((e) => e !== first && e.isLeader()));
    expect(next).toBeDefined();
  });

  it('stops leading when its lock session dies, and a leader is elected again within the retry interval', async () => {
    elections = dbs.map((db) => elect(db, { lead: leadUntilAborted, retryMs: 200, leaseMs: 10_000 }));
    const first = await until(3_000, async () => elections.find((e) => e.isLeader()));
    expect(await killLeaderSession()).toEqual([{ ok: true }]);
    await until(3_000, async () => (first.isLeader() ? undefined : true));
    await until(1_000, async () => elections.find((e) => e.isLeader()));
    await new Promise((r) => setTimeout(r, 500));
    expect(elections.filter((e) => e.isLeader())).toHaveLength(1);
  });

  it('a frozen leader (SIGSTOP) loses its lease: another leads within lease + retry, and the resumed one is fenced off', async () => {
    const LEASE_MS = 2_000;
    const RETRY_MS = 200;
    const child = start(
      'test/support/leader-child.ts',
      [TEST_DATABASE_URL!, t.db.schema, String(LEASE_MS), String(RETRY_MS)],
      {},
    );
    try {
      await child.waitFor(/^leading$/m, 60_000);
      elections = [elect(dbs[0]!, { lead: leadUntilAborted, retryMs: RETRY_MS, leaseMs: LEASE_MS })];
      await new Promise((r) => setTimeout(r, 3 * LEASE_MS));
      expect(elections[0]!.isLeader()).toBe(false);
      process.kill(child.pid, 'SIGSTOP');
      const frozenAt = performance.now();
      await until(LEASE_MS + RETRY_MS + 5_000, async () => (elections[0]!.isLeader() ? true : undefined));
      expect(performance.now() - frozenAt).toBeLessThan(LEASE_MS + RETRY_MS + 1_500);
      const resumedAt = child.output().length;
      process.kill(child.pid, 'SIGCONT');
      await child.waitFor(/^lost$/m, 10_000);
      await new Promise((r) => setTimeout(r, 3 * LEASE_MS));
      expect(child.output().slice(resumedAt)).not.toMatch(/^(cycle|leading)$/m);
      expect(elections[0]!.isLeader()).toBe(true);
    } finally {
      process.kill(child.pid, 'SIGCONT');
      killStarted();
    }
  }, 120_000);
});
