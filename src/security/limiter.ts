import type { Logger } from '../logger.js';
import { FailoverBucketStore } from './failover-store.js';
import { MemoryBucketStore } from './memory-store.js';
import { RedisBucketStore } from './redis-store.js';
import { type Clock, TokenBucketLimiter } from './token-bucket.js';

/** The configuration settings the limiter reads (names as in `Config`). */
export interface RateLimitSettings {
  readonly RATE_LIMIT_CAPACITY: number;
  readonly RATE_LIMIT_REFILL_PER_SECOND: number;
  /** Shared buckets in Redis when set; in process memory otherwise. */
  readonly REDIS_URL?: string | undefined;
  /** Prefix of the bucket keys in Redis. */
  readonly RATE_LIMIT_KEY_PREFIX: string;
}

/** Options beyond the settings: the clock (tests) and Redis timings. */
export interface CreateLimiterOptions {
  readonly logger: Logger;
  /** Refill clock; omitted: Redis server time with Redis, `Date.now` in memory. */
  readonly clock?: Clock;
  readonly redisCommandTimeoutMs?: number;
  readonly redisConnectWaitMs?: number;
}

/**
 * Builds the limiter the settings describe: buckets in Redis (falling back to memory while Redis is
 * unreachable, see {@link FailoverBucketStore}) with REDIS_URL, else in memory. Close it on shutdown.
 */
export function createRateLimiter(settings: RateLimitSettings, opts: CreateLimiterOptions): TokenBucketLimiter {
  const memory = new MemoryBucketStore(opts.clock);
  const store = settings.REDIS_URL
    ? new FailoverBucketStore(
        new RedisBucketStore({
          url: settings.REDIS_URL,
          keyPrefix: settings.RATE_LIMIT_KEY_PREFIX,
          ...(opts.redisCommandTimeoutMs !== undefined ? { commandTimeoutMs: opts.redisCommandTimeoutMs } : {}),
          ...(opts.redisConnectWaitMs !== undefined ? { connectWaitMs: opts.redisConnectWaitMs } : {}),
        }),
        memory,
        opts.logger,
      )
    : memory;
  return new TokenBucketLimiter({
    capacity: settings.RATE_LIMIT_CAPACITY,
    refillPerSecond: settings.RATE_LIMIT_REFILL_PER_SECOND,
    store,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
}
