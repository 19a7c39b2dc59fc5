import { randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBucketStore } from '../../src/security/memory-store.js';
import { RedisBucketStore } from '../../src/security/redis-store.js';
import {
  type BucketStore,
  type LimitDecision,
  rateLimitHeaders,
  retryAfterSeconds,
  TokenBucketLimiter,
} from '../../src/security/token-bucket.js';
import { TEST_REDIS_URL } from '../support/env.js';
import { manualClock } from './support.js';

const stores: [string, () => BucketStore][] = [['memory', () => new MemoryBucketStore()]];
const redisStores: RedisBucketStore[] = [];
if (TEST_REDIS_URL) {
  stores.push([
    'redis',
    () => {
      const store = new RedisBucketStore({
        url: TEST_REDIS_URL!,
        keyPrefix: `test:tb:${randomBytes(4).toString('hex')}:`,
      });
      redisStores.push(store);
      return store;
    },
  ]);
}
afterAll(() => Promise.all(redisStores.map((s) => s.close())));

async function spend(limiter: TokenBucketLimiter, key: string, times: number): Promise<LimitDecision[]> {
  const out: LimitDecision[] = [];
  for (let i = 0; i < times; i++) out.push(await limiter.consume(key));
  return out;
}

describe.each(stores)('token bucket in %s (capacity 200, refill 2/s, manual clock)', (_name, makeStore) => {
  let clock: ReturnType<typeof manualClock>;
  let limiter: TokenBucketLimiter;
  beforeEach(() => {
    clock = manualClock();
    limiter = new TokenBucketLimiter({ capacity: 200, refillPerSecond: 2, store: makeStore(), clock: clock.now });
  });

  it('lets a burst of exactly 200 through and refuses the 201st with Retry-After 1', async () => {
    const burst = await spend(limiter, 'a', 200);
    expect(burst.every((d) => d.allowed)).toBe(true);
    expect(burst.map((d) => d.remaining).slice(0, 3)).toEqual([199, 198, 197]);
    expect(burst[199]).toMatchObject({ remaining: 0, resetMs: 100_000 });
    const refused = await limiter.consume('a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 500 });
    expect(retryAfterSeconds(refused)).toBe(1);
    expect(rateLimitHeaders(refused)).toEqual({
      'RateLimit-Limit': '200',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '100',
      'Retry-After': '1',
    });
  });

  it('refills exactly 3 tokens in 1.5 s after the burst, then refuses again', async () => {
    await spend(limiter, 'a', 200);
    clock.advance(1500);
    const after = await spend(limiter, 'a', 4);
    expect(after.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(after[2]).toMatchObject({ remaining: 0, resetMs: 100_000 });
    expect(after[3]).toMatchObject({ retryAfterMs: 500 });
  });

  it('counts fractional refill: half a token after 250 ms is not enough, 250 ms later it is', async () => {
    await spend(limiter, 'a', 200);
    clock.advance(250);
    const early = await limiter.consume('a');
    expect(early).toMatchObject({ allowed: false, retryAfterMs: 250 });
    expect(retryAfterSeconds(early)).toBe(1);
    clock.advance(250);
    expect((await limiter.consume('a')).allowed).toBe(true);
  });

  it('gives whole seconds until enough tokens for a larger cost, and refuses without spending', async () => {
    await spend(limiter, 'a', 200);
    const refused = await limiter.consume('a', 10);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 5000 });
    expect(rateLimitHeaders(refused)['Retry-After']).toBe('5');
    clock.advance(5000);
    expect((await limiter.consume('a', 10)).allowed).toBe(true);
  });

  it('refills to capacity and no further', async () => {
    await spend(limiter, 'a', 50);
    clock.advance(3_600_000);
    expect((await limiter.peek('a')).remaining).toBe(200);
    expect((await spend(limiter, 'a', 201)).filter((d) => d.allowed)).toHaveLength(200);
  });

  it('keeps one bucket per key', async () => {
    await spend(limiter, 'a', 200);
    expect((await limiter.consume('a')).allowed).toBe(false);
    expect(await limiter.consume('b')).toMatchObject({ allowed: true, remaining: 199 });
  });

  it('reports a full untouched bucket on peek without spending', async () => {
    expect(await limiter.peek('new')).toMatchObject({ allowed: true, remaining: 200, resetMs: 0 });
    expect(rateLimitHeaders(await limiter.peek('new'))).toEqual({
      'RateLimit-Limit': '200',
      'RateLimit-Remaining': '200',
      'RateLimit-Reset': '0',
    });
  });

  it('refills nothing when a clock runs behind the stored instant', async () => {
    await spend(limiter, 'a', 200);
    clock.advance(-10_000);
    expect((await limiter.consume('a')).allowed).toBe(false);
    clock.advance(10_500);
    expect((await limiter.consume('a')).allowed).toBe(true);
  });

  it('reports RateLimit-Reset as whole seconds until full, rounded up', async () => {
    await spend(limiter, 'a', 3);
    clock.advance(1);
    expect(rateLimitHeaders(await limiter.peek('a'))['RateLimit-Reset']).toBe('2');
  });
});

describe('memory store', () => {
  it('forgets a bucket once it would be full again', async () => {
    const clock = manualClock();
    const store = new MemoryBucketStore(clock.now);
    const limiter = new TokenBucketLimiter({ capacity: 10, refillPerSecond: 2, store, clock: clock.now });
    await limiter.consume('a', 4);
    expect(store.size).toBe(1);
    clock.advance(2000);
    await limiter.peek('a');
    expect(store.size).toBe(0);
  });
});
