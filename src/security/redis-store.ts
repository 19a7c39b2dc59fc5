import { Redis } from 'ioredis';
import type { BucketShape, BucketStore, TakeResult } from './token-bucket.js';

/**
 * The whole refill-then-take step, atomic in Redis (mirrors `takeTokens`). The bucket is a hash
 * {t: tokens, at: ms}; a missing key is a full bucket. A successful take writes the state and sets the
 * key to expire when the bucket would be full again; a refused take or a read (cost 0) writes nothing.
 * ARGV: capacity, refill per second, cost, now in ms (empty: the Redis server clock, shared by every
 * gateway instance). Returns {allowed (0/1), tokens left as a string (Lua numbers would be truncated)}.
 */
export const TOKEN_BUCKET_LUA = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
if now > at then
  tokens = math.min(capacity, tokens + (now - at) * rate / 1000)
  at = now
end
if cost > tokens then
  return {0, tostring(tokens)}
end
tokens = tokens - cost
if cost > 0 then
  if tokens >= capacity then
    redis.call('DEL', KEYS[1])
  else
    redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
    redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * 1000 / rate))
  end
end
return {1, tostring(tokens)}
`;

/** Raised when Redis cannot answer now (not connected, timed out); the failover store catches it. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

type BucketRedis = Redis & {
  emkTokenBucket(key: string, capacity: number, rate: number, cost: number, now: string): Promise<[number, string]>;
};

/** Redis timings when not given, ms: per command, and the wait for the first connection. */
const REDIS_TIMINGS = { commandTimeoutMs: 500, connectWaitMs: 2000 } as const;

/** Options of {@link RedisBucketStore}. */
export interface RedisStoreOptions {
  /** `redis://` or `rediss://` URL. */
  readonly url: string;
  /** Prefix of every bucket key, e.g. `emk:rl:`. */
  readonly keyPrefix: string;
  /** Per-command timeout in ms (a hung Redis must not hang requests). Default 500. */
  readonly commandTimeoutMs?: number;
  /** How long the first command waits for the initial connection, in ms. Default 2000. */
  readonly connectWaitMs?: number;
}

/**
 * Buckets in Redis, shared by every gateway instance on the same Redis and key prefix. Commands are
 * never queued while disconnected: they fail at once with {@link StoreUnavailableError}.
 */
export class RedisBucketStore implements BucketStore {
  private readonly redis: BucketRedis;
  private readonly keyPrefix: string;
  private readonly firstConnect: Promise<void>;

  constructor(options: RedisStoreOptions) {
    const opts = { ...REDIS_TIMINGS, ...options };
    this.keyPrefix = opts.keyPrefix;
    const redis = new Redis(opts.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: opts.commandTimeoutMs,
      connectTimeout: opts.connectWaitMs,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    redis.on('error', () => undefined); // reported by the failover store, once per outage
    redis.defineCommand('emkTokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
    this.redis = redis as BucketRedis;
    this.firstConnect = settleOnFirstOutcome(redis, opts.connectWaitMs);
  }

  /** Resolves once the first connection attempt succeeded, failed or timed out. */
  async ready(): Promise<boolean> {
    await this.firstConnect;
    return this.redis.status === 'ready';
  }

  async take(key: string, cost: number, shape: BucketShape, now: number | undefined): Promise<TakeResult> {
    if (this.redis.status !== 'ready' && !(await this.ready())) {
      throw new StoreUnavailableError(`redis is ${this.redis.status}`);
    }
    const reply = await this.redis.emkTokenBucket(
      this.keyPrefix + key,
      shape.capacity,
      shape.refillPerSecond,
      cost,
      now === undefined ? '' : String(now),
    );
    return { allowed: reply[0] === 1, tokens: Number(reply[1]) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** Resolves on the first of: ready, error, end, or the timeout. */
function settleOnFirstOutcome(redis: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    function done(): void {
      clearTimeout(timer);
      for (const event of ['ready', 'error', 'end'] as const) redis.off(event, done);
      resolve();
    }
    for (const event of ['ready', 'error', 'end'] as const) redis.once(event, done);
  });
}
