import {
  type BucketShape,
  type BucketState,
  type BucketStore,
  type Clock,
  msUntilFull,
  takeTokens,
  type TakeResult,
} from './token-bucket.js';

/** Every this many takes, buckets that are full again are dropped. */
const SWEEP_EVERY = 1024;

/**
 * Buckets in process memory: one instance alone, tests, and the fallback while Redis is down.
 * A bucket is forgotten once it would be full again (a missing bucket is a full one), so memory stays
 * proportional to the clients active in the last `capacity / refill` seconds.
 */
export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, BucketState>();
  private takes = 0;

  /** @param clock used when the limiter passes no time of its own. */
  constructor(private readonly clock: Clock = Date.now) {}

  /** Number of buckets held (not full). */
  get size(): number {
    return this.buckets.size;
  }

  async take(key: string, cost: number, shape: BucketShape, now: number | undefined): Promise<TakeResult> {
    const at = now ?? this.clock();
    const { result, state } = takeTokens(this.buckets.get(key), cost, shape, at);
    if (state.tokens >= shape.capacity) this.buckets.delete(key);
    else if (cost > 0 && result.allowed) this.buckets.set(key, state);
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(shape, at);
    return result;
  }

  /** Drops the buckets that are full again at `now`. */
  sweep(shape: BucketShape, now: number): void {
    for (const [key, state] of this.buckets) {
      if (state.at + msUntilFull(state.tokens, shape) <= now) this.buckets.delete(key);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
