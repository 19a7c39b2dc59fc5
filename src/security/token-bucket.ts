/**
 * Token bucket rate limiting: the arithmetic, the store contract and the limiter.
 *
 * A bucket holds at most `capacity` tokens and gains `refillPerSecond` tokens per second, continuously
 * (fractions accumulate). A request costing `n` tokens passes when the bucket holds at least `n`;
 * a refused request takes nothing. A bucket nobody touched is full, so stores may forget a bucket once
 * it would be full again.
 */

/** Milliseconds since the epoch. Tests inject a controllable clock. */
export type Clock = () => number;

/** Stored state of one bucket: tokens left at instant `at` (ms). */
export interface BucketState {
  readonly tokens: number;
  readonly at: number;
}

/** Shape of a bucket: its capacity and its refill rate in tokens per second. */
export interface BucketShape {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

/** Tokens gained in `ms` milliseconds (integer arithmetic first, so whole results are exact). */
export function tokensIn(ms: number, shape: BucketShape): number {
  return (ms * shape.refillPerSecond) / 1000;
}

/** Milliseconds needed to gain `tokens`, rounded up. */
export function msFor(tokens: number, shape: BucketShape): number {
  return Math.ceil((tokens * 1000) / shape.refillPerSecond);
}

/** What a store answers for one take: whether the tokens were taken, and the tokens left after it. */
export interface TakeResult {
  readonly allowed: boolean;
  readonly tokens: number;
}

/**
 * Where buckets live. `take` must be atomic per key: refill, compare, subtract in one step.
 * `cost` 0 reads the bucket without changing it. `now` is undefined when the store keeps its own clock
 * (Redis server time).
 */
export interface BucketStore {
  take(key: string, cost: number, shape: BucketShape, now: number | undefined): Promise<TakeResult>;
  close(): Promise<void>;
}

/** Outcome of one request against a bucket, with everything the HTTP headers need. */
export interface LimitDecision {
  readonly allowed: boolean;
  /** Tokens asked for. */
  readonly cost: number;
  /** Bucket capacity (RateLimit-Limit). */
  readonly limit: number;
  /** Whole tokens left after this request (RateLimit-Remaining). */
  readonly remaining: number;
  /** Milliseconds until `cost` tokens are available again; 0 when allowed. */
  readonly retryAfterMs: number;
  /** Milliseconds until the bucket is full again (RateLimit-Reset, rounded up to seconds). */
  readonly resetMs: number;
}

/**
 * The refill-then-take step on a stored state (undefined = full bucket). The Redis Lua script
 * implements exactly this; keep them in step. A clock running behind the stored instant refills nothing.
 */
export function takeTokens(
  state: BucketState | undefined,
  cost: number,
  shape: BucketShape,
  now: number,
): { result: TakeResult; state: BucketState } {
  const base = state ?? { tokens: shape.capacity, at: now };
  const at = Math.max(base.at, now);
  const tokens = Math.min(shape.capacity, base.tokens + tokensIn(at - base.at, shape));
  if (cost <= tokens) return { result: { allowed: true, tokens: tokens - cost }, state: { tokens: tokens - cost, at } };
  return { result: { allowed: false, tokens }, state: { tokens, at } };
}

/** Milliseconds after which a bucket holding `tokens` is full again (0 when full). */
export function msUntilFull(tokens: number, shape: BucketShape): number {
  return tokens >= shape.capacity ? 0 : msFor(shape.capacity - tokens, shape);
}

/** Builds the decision for a take of `cost` tokens that left `tokens` in the bucket. */
export function decide(result: TakeResult, cost: number, shape: BucketShape): LimitDecision {
  const missing = Math.min(cost, shape.capacity) - result.tokens;
  return {
    allowed: result.allowed,
    cost,
    limit: shape.capacity,
    remaining: Math.max(0, Math.floor(result.tokens + 1e-9)),
    retryAfterMs: result.allowed ? 0 : Math.max(1, msFor(missing, shape)),
    resetMs: msUntilFull(result.tokens, shape),
  };
}

/** Options of {@link TokenBucketLimiter}. */
export interface TokenBucketOptions {
  /** Tokens a full bucket holds (burst size). */
  readonly capacity: number;
  /** Tokens added per second. */
  readonly refillPerSecond: number;
  readonly store: BucketStore;
  /**
   * Clock for the refill arithmetic. Omitted: the store's own clock (Redis server time, which keeps
   * several gateway instances consistent) or `Date.now` in memory.
   */
  readonly clock?: Clock;
}

/** A token bucket limiter over a {@link BucketStore}, one bucket per client key. */
export class TokenBucketLimiter {
  readonly capacity: number;
  readonly refillPerSecond: number;
  private readonly shape: BucketShape;
  private readonly store: BucketStore;
  private readonly clock: Clock | undefined;

  constructor(opts: TokenBucketOptions) {
    if (!(opts.capacity >= 1)) throw new RangeError('capacity must be at least 1');
    if (!(opts.refillPerSecond > 0)) throw new RangeError('refillPerSecond must be positive');
    this.capacity = opts.capacity;
    this.refillPerSecond = opts.refillPerSecond;
    this.shape = { capacity: opts.capacity, refillPerSecond: opts.refillPerSecond };
    this.store = opts.store;
    this.clock = opts.clock;
  }

  /** Takes `cost` tokens (default 1) from the bucket of `key` if it holds them. */
  async consume(key: string, cost = 1): Promise<LimitDecision> {
    if (!(cost >= 0)) throw new RangeError('cost must be non-negative');
    const result = await this.store.take(key, cost, this.shape, this.clock?.());
    return decide(result, cost, this.shape);
  }

  /** Reads the bucket of `key` without taking anything (for the headers of free requests). */
  peek(key: string): Promise<LimitDecision> {
    return this.consume(key, 0);
  }

  /** Releases the store (closes the Redis connection). */
  close(): Promise<void> {
    return this.store.close();
  }
}

/** Retry-After value: whole seconds until the refused request could pass, never 0. */
export function retryAfterSeconds(decision: LimitDecision): number {
  return Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
}

/**
 * The `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers (Reset = whole seconds
 * until the bucket is full again, 0 when full), plus `Retry-After` when the request was refused.
 */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(Math.ceil(decision.resetMs / 1000)),
  };
  if (!decision.allowed) headers['Retry-After'] = String(retryAfterSeconds(decision));
  return headers;
}
