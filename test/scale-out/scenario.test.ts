/**
 * The scale-out deployment of the README's "Running at scale", all real and on this machine:
 * Varnish (deploy/varnish.vcl) -> HAProxy (deploy/haproxy.cfg, `option httpchk GET /readyz`) ->
 * three instances of the built service (`node dist/src/main.js`) -> PgBouncer in transaction mode
 * (deploy/pgbouncer.ini) -> the test PostgreSQL, with DATABASE_DIRECT_URL on the server itself,
 * instance C reading from a streaming replica (deploy/replica.sh), rate limits shared in Redis,
 * and every instance following a fake ENTSO-E upstream (INGEST_FOLLOW; the elected leader ingests
 * and purges Varnish through CACHE_PURGE_URL). The steps run in order and print their figures.
 *
 * Short settings where the configuration allows them: lease 2 s, retry 0.5 s, drain 2 s, follow
 * interval 1 min (its minimum; the ingest of step b is the first cycle's, its ES prices request held
 * by the fake until the step releases it). Run by `npm run test:scale-out` (vitest.scale-out.config.ts)
 * with TEST_DATABASE_URL and TEST_REDIS_URL; CI's leg 4. Not part of `vitest run`.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPURGE_AFTER_MS } from '../../src/events/cache-purge.js';
import { dataEventsChannel } from '../../src/domain/data-events.js';
import { type Bouncer, pgbouncerAvailable, startPgbouncer } from '../../bench/pgbouncer.js';
import { type FakeUpstream, startFakeUpstream, TOKEN } from '../ingest-job/fake-upstream.js';
import { a44Days, EIC, key } from '../ingest-job/helpers.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../support/env.js';
import { freePort } from '../support/ports.js';
import { type Replica, startReplica } from '../support/replica.js';
import { run } from '../support/processes.js';
import { type Instance, instance, startHaproxy, startVarnish, stopAll } from './stack.js';
import { until } from '../support/wait.js';
import { serverStates } from '../support/haproxy.js';

const DAY = 86_400_000;
const LEASE_S = 2;
const RETRY_S = 0.5;
/** Takeover bound of the README: lease + retry, plus what one /readyz poll round may add, ms. */
const TAKEOVER_BOUND_MS = (LEASE_S + RETRY_S) * 1000 + 1_000;
const LOAD_PER_SECOND = 40;
/** Price (EUR/MWh) the fake publishes for ES on the day the probes read (a44Days: day index + 1). */
const FRESH_PRICE = 3;

const today = Math.floor(Date.now() / DAY) * DAY;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
const ES_TODAY = `/api/v1/prices?zone=ES&datetime_from=${isoDay(today)}&datetime_to=${isoDay(today + DAY)}&resolution=native`;
const FR_WEEK = `/api/v1/prices?zone=FR&datetime_from=${isoDay(today - 2 * DAY)}&datetime_to=${isoDay(today)}`;
const FLOWS = `/api/v1/flows?border=FR-%3EES&datetime_from=${isoDay(today - DAY)}&datetime_to=${isoDay(today)}`;
const GQL = {
  query: `{ prices(zones: ["DE_LU"], from: "${isoDay(today - DAY)}", to: "${isoDay(today)}") { totalCount edges { node { datetime priceEurMwh } } } }`,
};

interface Got {
  readonly status: number;
  readonly etag: string | null;
  readonly cache: string | null;
  readonly body: string;
}

async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    cache: res.headers.get('x-cache'),
    body: await res.text(),
  };
}

async function graphql(base: string): Promise<{ status: number; errors: unknown; count: unknown }> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(GQL),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { errors?: unknown; data?: { prices?: { totalCount?: unknown } } };
  return { status: res.status, errors: body.errors, count: body.data?.prices?.totalCount };
}

/** Whether a body of ES_TODAY holds the fake's prices for today only. */
function fresh(body: string): boolean {
  const rows = (JSON.parse(body) as { data?: { price_mwh: number }[] }).data ?? [];
  return rows.length >= 24 && rows.every((r) => r.price_mwh === FRESH_PRICE);
}

async function readyz(i: Instance): Promise<{ status: string; ingest?: { leader?: boolean } }> {
  return (await fetch(`${i.url}/readyz`, { signal: AbortSignal.timeout(3_000) })).json() as Promise<{
    status: string;
    ingest?: { leader?: boolean };
  }>;
}

/** GETs and GraphQL POSTs at `perSecond` to `base` until stopped; resolves with the count and every outcome that was not a good 200. */
function steadyLoad(base: string, perSecond: number): { stop(): Promise<{ sent: number; failures: string[] }> } {
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  const fire = () => {
    const n = sent++;
    const request = (
      n % 3 === 2
        ? graphql(base).then((r) =>
            r.status === 200 && !r.errors ? null : `graphql ${r.status} ${JSON.stringify(r.errors)}`,
          )
        : get(base, n % 3 ? FLOWS : FR_WEEK).then((r) => (r.status === 200 ? null : `rest ${r.status}`))
    )
      .then((failure) => void (failure && failures.push(`${new Date().toISOString()} ${failure}`)))
      .catch((err: unknown) => void failures.push(`${new Date().toISOString()} ${String(err)}`))
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  const timer = setInterval(fire, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { sent, failures };
    },
  };
}

const figures: [string, string][] = [];
const note = (what: string, value: string) => void figures.push([what, value]);

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)(
  'scale-out: Varnish -> HAProxy -> 3 instances -> PgBouncer -> PostgreSQL + streaming replica + Redis',
  () => {
    const schema = `scale_out_${process.pid}_${Date.now().toString(36)}`;
    let fake: FakeUpstream;
    let bouncer: Bouncer | undefined;
    let replica: Replica | undefined;
    let events: pg.Client | undefined;
    let varnish: { url: string };
    let haproxy: { url: string; stats: string };
    let a: Instance;
    let b: Instance;
    let c: Instance;
    let release: () => void = () => undefined;
    const all = () => [a, b, c];

    beforeAll(async () => {
      if (!pgbouncerAvailable())
        throw new Error('pgbouncer not found at /usr/sbin/pgbouncer (apt-get install pgbouncer)');
      const build = await run('scripts/build.mjs', ['--if-stale'], {});
      if (build.code !== 0) throw new Error(`build failed: ${build.stdout}${build.stderr}`);
      fake = await startFakeUpstream();
      const esKey = key('A44', EIC.ES, EIC.ES);
      fake.serve(esKey, { body: a44Days(EIC.ES, isoDay(today - 2 * DAY), 4) });
      fake.fail(esKey, { kind: 'hold', until: new Promise<void>((resolve) => (release = resolve)) });
      [bouncer, replica] = await Promise.all([
        startPgbouncer(TEST_DATABASE_URL!, { poolSize: 10 }),
        startReplica(TEST_DATABASE_URL!),
      ]);
      const [front, stats, cache, ...ports] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
        freePort(),
        freePort(),
        freePort(),
      ]);
      haproxy = await startHaproxy(
        front!,
        stats!,
        ports.map((p) => `127.0.0.1:${p}`),
      );
      varnish = await startVarnish(cache!, front!);
      const common: Record<string, string> = {
        DATABASE_URL: bouncer.url,
        DATABASE_DIRECT_URL: TEST_DATABASE_URL!,
        DATABASE_SCHEMA: schema,
        MIGRATE_ON_START: 'true',
        SEED_DEMO: 'true',
        DEMO_HISTORY_DAYS: '3',
        REDIS_URL: TEST_REDIS_URL!,
        RATE_LIMIT_KEY_PREFIX: `emk:${schema}:`,
        RATE_LIMIT_CAPACITY: '1000000',
        RATE_LIMIT_REFILL_PER_SECOND: '1',
        SHUTDOWN_DRAIN_SECONDS: '2',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        INGEST_FOLLOW: 'true',
        ENTSOE_SECURITY_TOKEN: TOKEN,
        ENTSOE_API_URL: fake.url,
        ENTSOE_REQUESTS_PER_MINUTE: '399',
        INGEST_FOLLOW_INTERVAL_MINUTES: '1',
        INGEST_FOLLOW_LEADER_RETRY_SECONDS: String(RETRY_S),
        INGEST_FOLLOW_LEADER_LEASE_SECONDS: String(LEASE_S),
        CACHE_PURGE_URL: `${varnish.url}/`,
        GRAPHIQL: 'false',
      };
      a = instance('A (primary, first leader)', ports[0]!, common);
      b = instance('B (primary)', ports[1]!, common);
      c = instance('C (replica reads)', ports[2]!, { ...common, DATABASE_READ_URL: replica.url });
      const startedAt = performance.now();
      await a.start();
      await Promise.all([b.start(), c.start()]);
      note(
        'start-up: A (migrate, seed 3 days) then B and C',
        `${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
      );
      events = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await events.connect();
      await events.query(`LISTEN ${events.escapeIdentifier(dataEventsChannel(schema))}`);
      await until(
        'HAProxy has the three instances up',
        async () => Object.values(await serverStates(haproxy.stats)).join() === 'UP,UP,UP',
        30_000,
      );
      await until(
        "the leader's first cycle asks for ES prices (held)",
        async () => fake.requests.some((r) => r.key === esKey),
        30_000,
      );
    }, 420_000);

    afterAll(async () => {
      release();
      if (figures.length)
        console.log(
          `\nscale-out figures (${new Date().toISOString()}):\n${figures.map(([what, value]) => `  ${what.padEnd(58)} ${value}`).join('\n')}\n`,
        );
      await events?.end().catch(() => undefined);
      stopAll();
      const drop = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await drop
        .connect()
        .then(() => drop.query(`DROP SCHEMA IF EXISTS ${drop.escapeIdentifier(schema)} CASCADE`))
        .catch(() => undefined);
      await drop.end().catch(() => undefined);
      await Promise.all([bouncer?.stop(), replica?.stop(), fake?.close()].map((p) => p?.catch(() => undefined)));
    }, 120_000);

    it('a. mixed REST and GraphQL traffic through Varnish, HAProxy and PgBouncer: no errors, every instance serves, one Redis bucket', async () => {
      const outcomes: string[] = [];
      const paths = [FR_WEEK, FLOWS, ES_TODAY, '/api/v1/zones'];
      await Promise.all(
        Array.from({ length: 6 }, async (_, worker) => {
          for (let n = 0; n < 30; n++) {
            if ((n + worker) % 3 === 0) {
              const r = await graphql(varnish.url);
              outcomes.push(
                r.status === 200 && !r.errors && typeof r.count === 'number'
                  ? 'ok'
                  : `graphql ${r.status} ${JSON.stringify(r.errors)}`,
              );
            } else {
              const r = await get(haproxy.url, paths[(n + worker) % paths.length]!);
              outcomes.push(r.status === 200 ? 'ok' : `rest ${r.status} ${r.body.slice(0, 200)}`);
              const viaCache = await get(varnish.url, paths[n % paths.length]!);
              outcomes.push(viaCache.status === 200 ? 'ok' : `varnish ${viaCache.status}`);
            }
          }
        }),
      );
      expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);
      note('a. mixed requests (REST via Varnish/HAProxy, GraphQL POST)', `${outcomes.length}, 0 errors`);
      const csv = await (await fetch(`${haproxy.stats}/stats;csv`)).text();
      const [header = '', ...rows] = csv.trim().split('\n');
      const cols = header.replace(/^# /, '').split(',');
      const served = rows
        .map((r) => r.split(','))
        .filter((r) => r[cols.indexOf('pxname')] === 'instances' && /^app\d$/.test(r[cols.indexOf('svname')]!))
        .map((r) => Number(r[cols.indexOf('stot')]));
      expect(served).toHaveLength(3);
      for (const n of served) expect(n).toBeGreaterThan(0);

      const remaining = async (i: Instance) =>
        Number((await fetch(`${i.url}/api/v1/zones`)).headers.get('ratelimit-remaining'));
      const first = await remaining(a);
      const second = await remaining(b);
      const third = await remaining(c);
      expect(second).toBeLessThan(first);
      expect(third).toBeLessThan(second);
    }, 120_000);

    let oldTag: string | null = null;
    let oldBody = '';

    it('c (before). same data, same ETag on every instance, the replica-backed one and a restarted one included', async () => {
      const answers = await Promise.all(all().map((i) => get(i.url, ES_TODAY)));
      for (const r of answers) expect([r.status, fresh(r.body)]).toEqual([200, false]);
      oldTag = answers[0]!.etag;
      oldBody = answers[0]!.body;
      expect(oldTag).toMatch(/^"/);
      expect(answers.map((r) => r.etag)).toEqual([oldTag, oldTag, oldTag]);
      b.signal('SIGTERM');
      expect((await b.exited()).code).toBe(0);
      await b.start();
      const again = await get(b.url, ES_TODAY);
      expect([again.etag, again.body === oldBody]).toEqual([oldTag, true]);
      expect((await get(b.url, ES_TODAY, { 'if-none-match': oldTag! })).status).toBe(304);
    }, 120_000);

    it('d (before). Varnish holds the ES page', async () => {
      await get(varnish.url, ES_TODAY);
      const hit = await get(varnish.url, ES_TODAY);
      expect([hit.cache, hit.body]).toEqual(['HIT', oldBody]);
    });

    it('b. an ingest by the leader reaches every instance, and Varnish serves it once purged again (no stale copy outlives the second purge)', async () => {
      const committed = new Promise<number>((resolve) =>
        events!.on('notification', (n) => {
          const e = JSON.parse(n.payload ?? '{}') as { item?: string; areas?: string[] };
          if (e.item === 'prices' && e.areas?.includes('ES')) resolve(performance.now());
        }),
      );
      const freshAt = new Map<string, number>();
      const staleAfterFresh: string[] = [];
      let polling = true;
      const probes = all().map(async (i) => {
        while (polling) {
          const r = await get(i.url, ES_TODAY).catch(() => undefined);
          if (r?.status === 200) {
            if (fresh(r.body)) freshAt.set(i.name, freshAt.get(i.name) ?? performance.now());
            else if (freshAt.has(i.name)) staleAfterFresh.push(i.name);
          }
          await new Promise((r) => setTimeout(r, 5));
        }
      });
      const viaCache: { at: number; fresh: boolean; cache: string | null }[] = [];
      const cacheProbe = (async () => {
        while (polling) {
          const r = await get(varnish.url, ES_TODAY).catch(() => undefined);
          if (r?.status === 200) viaCache.push({ at: performance.now(), fresh: fresh(r.body), cache: r.cache });
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      release();
      const at = await Promise.race([
        committed,
        new Promise<number>((_, reject) =>
          setTimeout(() => reject(new Error('no data event for ES prices within 30 s')), 30_000),
        ),
      ]);
      try {
        await until('every instance answers the new ES prices', async () => freshAt.size === 3, 15_000, 20);
        await new Promise((r) => setTimeout(r, at + REPURGE_AFTER_MS + 1_000 - performance.now()));
      } finally {
        polling = false;
        await Promise.all([...probes, cacheProbe]);
      }
      expect(staleAfterFresh).toEqual([]);
      const lastFresh = Math.max(...freshAt.values());
      expect(viaCache.filter((r) => r.at > at + REPURGE_AFTER_MS + 500 && !r.fresh)).toEqual([]);
      // Each instance purges once it dropped its own caches: no stale copy outlives the last one by long.
      expect(viaCache.filter((r) => r.at > lastFresh + 1_000 && !r.fresh)).toEqual([]);
      expect(viaCache.at(-1)?.fresh).toBe(true);
      note(
        'b. Varnish: first fresh answer after the commit',
        `${((viaCache.find((r) => r.fresh)?.at ?? NaN) - at).toFixed(0)} ms`,
      );
      note(
        'b. Varnish: stale answers after every instance was fresh',
        String(viaCache.filter((r) => r.at > lastFresh && !r.fresh).length),
      );
      for (const i of all())
        note(
          `b. invalidation delay, commit -> fresh: ${i.name}`,
          `${Math.max(0, freshAt.get(i.name)! - at).toFixed(0)} ms`,
        );
    }, 60_000);

    it('c (after). new data, a new ETag, the same on every instance', async () => {
      const answers = await Promise.all(all().map((i) => get(i.url, ES_TODAY, { 'if-none-match': oldTag! })));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      const tags = answers.map((r) => r.etag);
      expect(tags[0]).not.toBe(oldTag);
      expect(tags).toEqual([tags[0], tags[0], tags[0]]);
    });

    it('d (after). the purge reached Varnish: it serves the new ES prices', async () => {
      const after = await get(varnish.url, ES_TODAY);
      expect(fresh(after.body)).toBe(true);
    });

    it(`e. a rolling restart through HAProxy at ${LOAD_PER_SECOND} requests/s loses no request`, async () => {
      const load = steadyLoad(haproxy.url, LOAD_PER_SECOND);
      const started = performance.now();
      const upAgain = async () => Object.values(await serverStates(haproxy.stats)).join() === 'UP,UP,UP';
      try {
        for (const i of all()) {
          await new Promise((r) => setTimeout(r, 1_000));
          i.signal('SIGTERM');
          expect((await i.exited()).code).toBe(0);
          await i.start();
          await until(`HAProxy has ${i.name} up again`, upAgain, 30_000);
        }
        await new Promise((r) => setTimeout(r, 1_000));
      } finally {
        const { sent, failures } = await load.stop();
        note(
          'e. rolling restart of 3 instances: requests sent, failed',
          `${sent}, ${failures.length} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
        );
        expect(failures).toEqual([]);
        expect(sent).toBeGreaterThan(LOAD_PER_SECOND * 10);
      }
    }, 180_000);

    const leaderOf = async (candidates: Instance[]): Promise<Instance | undefined> => {
      const states = await Promise.all(
        candidates.map((i) =>
          readyz(i).then(
            (r) => r.ingest?.leader === true,
            () => false,
          ),
        ),
      );
      return candidates.find((_, n) => states[n]);
    };
    const takeover = async (
      signal: 'SIGKILL' | 'SIGSTOP',
      candidates: Instance[],
    ): Promise<{ old: Instance; next: Instance; ms: number }> => {
      let old: Instance | undefined;
      await until('one instance leads', async () => (old = await leaderOf(candidates)) !== undefined, 30_000);
      const others = candidates.filter((i) => i !== old);
      old!.signal(signal);
      const at = performance.now();
      let next: Instance | undefined;
      await until(
        `another instance leads after ${signal}`,
        async () => (next = await leaderOf(others)) !== undefined,
        30_000,
        50,
      );
      return { old: old!, next: next!, ms: performance.now() - at };
    };

    it(`f. kill -9, then SIGSTOP of the leader: another leads within lease + retry (${LEASE_S} + ${RETRY_S} s), and the frozen one, resumed, no longer leads`, async () => {
      const killed = await takeover('SIGKILL', all());
      note(`f. takeover after kill -9 of ${killed.old.name}`, `${killed.ms.toFixed(0)} ms`);
      expect(killed.ms).toBeLessThan(TAKEOVER_BOUND_MS);
      const live = all().filter((i) => i !== killed.old);
      const frozen = await takeover('SIGSTOP', live);
      note(`f. takeover after SIGSTOP of ${frozen.old.name}`, `${frozen.ms.toFixed(0)} ms`);
      expect(frozen.ms).toBeLessThan(TAKEOVER_BOUND_MS);
      frozen.old.signal('SIGCONT');
      await new Promise((r) => setTimeout(r, 3 * LEASE_S * 1000));
      const leaders = await Promise.all(live.map((i) => readyz(i).then((r) => r.ingest?.leader === true)));
      expect(leaders.filter(Boolean)).toHaveLength(1);
      expect(leaders[live.indexOf(frozen.next)]).toBe(true);
    }, 120_000);
  },
);
