/**
 * `npm run bench -- --access [--seconds 30] [--keys 20]`: the rate limit under 10x its refill rate.
 * The server runs `dist/src/main.js` (`src/main.ts` under tsx) in a child process on loopback (PostgreSQL schema `bench_access`,
 * migrated and seeded here first so that the server's memory holds no seeding garbage; the
 * rate-limit settings at their defaults), once with in-memory buckets and once with buckets in
 * Redis; `keys` API keys each send 10x the refill rate of a small query on an open-loop schedule
 * while `/metrics` is sampled every second. Bounded: the load stops after `seconds`, the server
 * after the load.
 */
import { Redis } from 'ioredis';
import { prepareDatabase } from '../src/bootstrap.js';
import { loadConfig, testConfig } from '../src/config.js';
import { type Database, openPostgres } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { revokeApiKey } from '../src/repositories/keys/api-keys.js';
import { createApiKey } from '../src/security/api-keys.js';
import { type LegResult, reportAccess } from './access-report.js';
import { type ProcessSample, sampleProcess, startServer } from './access-server.js';
import { loadAgent, runOpenLoop } from './open-loop.js';

/** The PostgreSQL schema of the access bench (the demo data set, seeded on the first run and reused). */
export const ACCESS_SCHEMA = 'bench_access';
/** Load per key as a multiple of the refill rate. */
export const OVERLOAD = 10;

/** How to run the access bench. */
export interface AccessOptions {
  readonly pgUrl: string;
  /** The Redis leg is skipped when nothing answers here. */
  readonly redisUrl: string;
  readonly seconds: number;
  /** API keys sending load at once. */
  readonly keys: number;
  /** Keep-alive connections of the load driver. Default 32. */
  readonly connections?: number;
}

const SAMPLE_EVERY_MS = 1000;
/** Seconds of warm-up at the full rate, on keys of their own (half their burst, so no 429). */
const WARMUP_SECONDS = 5;
const log = (m: string) => process.stderr.write(`${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A 24-hour native DE_LU window ending at the last stored price (96 rows), whatever day the data was seeded. */
async function smallQuery(db: Database): Promise<string> {
  const [row] = await db.rawQuery<{ last: Date | null }>(
    "SELECT max(p.ts) AS last FROM price_point p JOIN zone z ON z.id = p.zone_id WHERE z.code = 'DE_LU'",
  );
  if (!row?.last) throw new Error(`${ACCESS_SCHEMA} holds no DE_LU prices`);
  const to = row.last.getTime() + 15 * 60_000;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
  return `/api/v1/prices?zone=DE_LU&datetime_from=${iso(to - 86_400_000)}&datetime_to=${iso(to)}&resolution=native`;
}

/** A connected client for `url`, or the reason none could be had (fast: no retries). */
async function connectRedis(url: string): Promise<Redis | string> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (err) {
    redis.disconnect();
    return err instanceof Error ? err.message : String(err);
  }
}

async function scanKeys(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** The API keys of a run: the measured ones, as many for the warm-up, and one to exercise 429s before the load. */
interface KeySet {
  readonly load: readonly string[];
  readonly warm: readonly string[];
  readonly refuse: string;
}

interface Leg {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly redis?: { client: Redis; prefix: string };
}

/**
 * One server child under the load: a warm-up at the full rate on other keys (JIT, the database
 * pool's connections), the live heap, 300 requests at 100/s on one key (200 accepted, the rest 429),
 * the sampled load, the live heap again, stop.
 */
async function runLeg(leg: Leg, db: Database, keys: KeySet, opts: AccessOptions): Promise<LegResult> {
  const config = loadConfig(leg.env);
  log(`${leg.name}: starting the server`);
  const server = await startServer(leg.env);
  const connections = opts.connections ?? 32;
  const agent = loadAgent(connections);
  try {
    const path = await smallQuery(db);
    const probe = await fetch(server.base + path, { headers: { 'x-api-key': keys.refuse } });
    const rows = ((await probe.json()) as { data?: unknown[] }).data?.length ?? 0;
    if (probe.status !== 200 || rows === 0) throw new Error(`${path}: HTTP ${probe.status}, ${rows} rows`);
    const rate = keys.load.length * OVERLOAD * config.RATE_LIMIT_REFILL_PER_SECOND;
    log(`${leg.name}: warm-up`);
    const warmup = await runOpenLoop({
      base: server.base,
      path,
      keys: keys.warm,
      ratePerSecond: rate,
      seconds: WARMUP_SECONDS,
      agent,
    });
    const liveBefore = await server.liveMemory();
    const refusals = await runOpenLoop({
      base: server.base,
      path,
      keys: [keys.refuse],
      ratePerSecond: 100,
      seconds: 3,
      agent,
    });
    for (const w of [warmup, refusals]) {
      if (w.other.size) throw new Error(`warm-up: ${[...w.other].map(([k, n]) => `${k} x${n}`).join(', ')}`);
    }
    await sleep(SAMPLE_EVERY_MS);
    const samples: ProcessSample[] = [await sampleProcess(server.base, -1)];
    log(`${leg.name}: ${rate} req/s from ${keys.load.length} keys for ${opts.seconds} s`);
    const t0 = performance.now();
    const pending: Promise<void>[] = [];
    const sampler = setInterval(() => {
      pending.push(
        sampleProcess(server.base, performance.now() - t0).then(
          (s) => void samples.push(s),
          () => undefined,
        ),
      );
    }, SAMPLE_EVERY_MS);
    let redisBuckets: number | undefined;
    const tally = await runOpenLoop({
      base: server.base,
      path,
      keys: keys.load,
      ratePerSecond: rate,
      seconds: opts.seconds,
      agent,
      midway: () => {
        if (leg.redis)
          pending.push(scanKeys(leg.redis.client, leg.redis.prefix).then((k) => void (redisBuckets = k.length)));
      },
    });
    clearInterval(sampler);
    await Promise.all(pending);
    samples.push(await sampleProcess(server.base, performance.now() - t0));
    const live = { before: liveBefore, after: await server.liveMemory() };
    agent.destroy();
    const exit = await server.stop();
    log(`${leg.name}: server stopped (${exit})`);
    return {
      name: leg.name,
      config,
      path,
      rows,
      keys: keys.load.length,
      rate,
      seconds: opts.seconds,
      connections,
      warmup,
      tally,
      samples,
      live,
      redisBuckets,
      warnings: server.warnings,
      exit,
    };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

/**
 * Migrates and seeds {@link ACCESS_SCHEMA}, creates 2 x `keys` + 1 API keys there (the measured ones
 * and the warm-up's), runs the in-memory leg and, when Redis answers at `redisUrl`, the Redis leg
 * (bucket keys under a prefix of their own, deleted afterwards), revokes the keys and returns the
 * Markdown report.
 */
export async function runAccess(opts: AccessOptions): Promise<string> {
  const config = testConfig({
    DATABASE_URL: opts.pgUrl,
    DATABASE_SCHEMA: ACCESS_SCHEMA,
    DATABASE_POOL_SIZE: 2,
    SEED_DEMO: true,
    MIGRATE_ON_START: true,
  });
  const db = await openPostgres(config, opts.pgUrl);
  const created: number[] = [];
  const results: LegResult[] = [];
  const notes: string[] = [];
  try {
    await prepareDatabase(db, config, createLogger({ LOG_LEVEL: 'warn' }), new Date());
    const stamp = new Date().toISOString();
    const make = async (label: string) => {
      const key = await createApiKey(db, `bench-access ${stamp} ${label}`);
      created.push(key.id);
      return key.key;
    };
    const count = Array.from({ length: opts.keys }, (_, i) => i + 1);
    const keys: KeySet = {
      load: await Promise.all(count.map((i) => make(`load ${i}`))),
      warm: await Promise.all(count.map((i) => make(`warm-up ${i}`))),
      refuse: await make('429 warm-up'),
    };
    const env = {
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: opts.pgUrl,
      DATABASE_SCHEMA: ACCESS_SCHEMA,
      MIGRATE_ON_START: 'true',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
    };
    results.push(await runLeg({ name: 'in-memory buckets', env }, db, keys, opts));
    const redis = await connectRedis(opts.redisUrl);
    if (typeof redis === 'string') {
      notes.push(`Redis leg skipped: nothing answered at ${opts.redisUrl} (${redis}).`);
      log(notes[notes.length - 1]!);
    } else {
      const prefix = `emk:bench-access:${Date.now()}:`;
      try {
        const leg = {
          name: 'Redis buckets',
          env: { ...env, REDIS_URL: opts.redisUrl, RATE_LIMIT_KEY_PREFIX: prefix },
          redis: { client: redis, prefix },
        };
        results.push(await runLeg(leg, db, keys, opts));
      } finally {
        const left = await scanKeys(redis, prefix);
        if (left.length) await redis.del(...left);
        redis.disconnect();
      }
    }
  } finally {
    for (const id of created) await revokeApiKey(db, id);
    await db.close();
  }
  return reportAccess(results, notes);
}
