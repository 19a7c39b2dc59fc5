import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FailoverBucketStore } from '../../src/security/failover-store.js';
import { createRateLimiter, type RateLimitSettings } from '../../src/security/limiter.js';
import { MemoryBucketStore } from '../../src/security/memory-store.js';
import type { BucketStore } from '../../src/security/token-bucket.js';
import { TokenBucketLimiter } from '../../src/security/token-bucket.js';
import { TEST_REDIS_URL } from '../support/env.js';
import { captureLogger, manualClock, testServer } from './support.js';

const settings = (redisUrl: string, prefix: string): RateLimitSettings => ({
  RATE_LIMIT_CAPACITY: 200,
  RATE_LIMIT_REFILL_PER_SECOND: 2,
  REDIS_URL: redisUrl,
  RATE_LIMIT_KEY_PREFIX: prefix,
});

const open: TokenBucketLimiter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

function limiterOn(url: string, prefix: string, clock?: () => number) {
  const log = captureLogger();
  const limiter = createRateLimiter(settings(url, prefix), {
    logger: log.logger,
    ...(clock ? { clock } : {}),
    redisConnectWaitMs: 1000,
  });
  open.push(limiter);
  return { limiter, log };
}

async function allowedCount(results: Promise<{ allowed: boolean }>[]): Promise<number> {
  return (await Promise.all(results)).filter((d) => d.allowed).length;
}

describe.skipIf(!TEST_REDIS_URL)('buckets shared through one real Redis', () => {
  const url = TEST_REDIS_URL!;
  const admin = TEST_REDIS_URL ? new Redis(TEST_REDIS_URL) : undefined;
  afterAll(() => admin?.quit());

  it('two limiter instances share one budget: 200 + refill in total, not twice that', async () => {
    const prefix = `test:shared:${randomBytes(4).toString('hex')}:`;
    const clock = manualClock();
    const a = limiterOn(url, prefix, clock.now).limiter;
    const b = limiterOn(url, prefix, clock.now).limiter;
    const burst = Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).consume('key:1'));
    expect(await allowedCount(burst)).toBe(200);
    clock.advance(1500);
    const after = Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).consume('key:1'));
    expect(await allowedCount(after)).toBe(3);
  });

  it('two servers on one Redis answer 200 requests in total, then share the refill', async () => {
    const prefix = `test:servers:${randomBytes(4).toString('hex')}:`;
    const clock = manualClock();
    const one = testServer({ limiter: limiterOn(url, prefix, clock.now).limiter });
    const two = testServer({ limiter: limiterOn(url, prefix, clock.now).limiter });
    const statuses = await Promise.all(
      Array.from({ length: 260 }, (_, i) => (i % 2 ? one : two).send('/api/v1/ping').then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(200);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    clock.advance(1500);
    const after = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).send('/api/v1/ping').then((r) => r.status)),
    );
    expect(after.filter((s) => s === 200)).toHaveLength(3);
  });

  it('stores a bucket as one key that expires when the bucket would be full again', async () => {
    const prefix = `test:ttl:${randomBytes(4).toString('hex')}:`;
    const clock = manualClock();
    const { limiter } = limiterOn(url, prefix, clock.now);
    await limiter.consume('ip:1', 10);
    const ttl = await admin!.pttl(`${prefix}ip:1`);
    expect(ttl).toBeGreaterThan(4900);
    expect(ttl).toBeLessThanOrEqual(5000);
    clock.advance(5000);
    await limiter.consume('ip:1', 0);
    expect(await admin!.exists(`${prefix}ip:1`)).toBe(1); // a read writes nothing
    await limiter.peek('ip:3');
    expect(await admin!.exists(`${prefix}ip:3`)).toBe(0); // untouched buckets are not stored
  });

  it('uses the Redis server clock when no clock is given', async () => {
    const prefix = `test:time:${randomBytes(4).toString('hex')}:`;
    const { limiter, log } = limiterOn(url, prefix);
    const first = await limiter.consume('ip:1', 200);
    expect(await admin!.exists(`${prefix}ip:1`)).toBe(1);
    expect(log.records().filter((r) => Number(r.level) >= 40)).toEqual([]);
    const second = await limiter.consume('ip:1', 1);
    expect(first.allowed).toBe(true);
    expect(second).toMatchObject({ allowed: false, remaining: 0 });
    expect(second.retryAfterMs).toBeGreaterThan(0);
    expect(second.retryAfterMs).toBeLessThanOrEqual(500);
  });
});

describe('Redis unreachable: fail open to per-instance memory buckets', () => {
  const CLOSED = 'redis://127.0.0.1:1';

  it('keeps answering, limits in memory, and logs one warning per outage', async () => {
    const { limiter, log } = limiterOn(CLOSED, 'test:down:', manualClock().now);
    const server = testServer({ limiter });
    const statuses: number[] = [];
    for (let i = 0; i < 201; i++) statuses.push((await server.send('/api/v1/ping')).status);
    expect(statuses.slice(0, 200).every((s) => s === 200)).toBe(true);
    expect(statuses[200]).toBe(429);
    const warnings = log.records().filter((r) => r['level'] === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ policy: 'fail-open-to-memory' });
    expect(String(warnings[0]!['msg'])).toMatch(/rate limit store unavailable/);
  });

  it('answers the first request without waiting for reconnection attempts', async () => {
    const { limiter } = limiterOn(CLOSED, 'test:down2:');
    const started = performance.now();
    expect((await limiter.consume('ip:x')).allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('failover store', () => {
  it('logs once when an outage starts and once when it ends, retrying the primary after 1 s', async () => {
    let up = false;
    let calls = 0;
    const primary: BucketStore = {
      async take() {
        calls++;
        if (!up) throw new Error('connection refused');
        return { allowed: true, tokens: 9 };
      },
      close: async () => undefined,
    };
    let t = 0;
    const log = captureLogger();
    const store = new FailoverBucketStore(primary, new MemoryBucketStore(() => 0), log.logger, () => t);
    const limiter = new TokenBucketLimiter({ capacity: 10, refillPerSecond: 1, store, clock: () => 0 });
    for (let i = 0; i < 5; i++) await limiter.consume('k');
    expect(calls).toBe(1); // not asked again within a second
    expect(store.degraded).toBe(true);
    expect((await limiter.peek('k')).remaining).toBe(5); // the memory fallback counted
    t = 1500;
    await limiter.consume('k');
    expect(calls).toBe(2);
    up = true;
    t = 3000;
    expect((await limiter.consume('k')).remaining).toBe(9);
    expect(store.degraded).toBe(false);
    expect(log.records().map((r) => r['level'])).toEqual([40, 30]);
  });
});
