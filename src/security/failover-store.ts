import type { Logger } from '../logger.js';
import type { BucketShape, BucketStore, TakeResult } from './token-bucket.js';

/** After a failure, Redis is not asked again for this long (ms); requests use the fallback meanwhile. */
const RETRY_AFTER_FAILURE_MS = 1000;

/**
 * Redis-down policy: FAIL OPEN TO LOCAL LIMITS. When the primary (Redis) store fails, buckets move to
 * the fallback (process memory) until Redis answers again; requests are never refused or failed because
 * of Redis. Rationale: the limiter protects a read-only public API from overuse, it is not a billing
 * or security boundary, so an outage of the limiter's store must not take the API down (fail-closed
 * would turn a Redis outage into a full API outage). Pure fail-open would drop all protection; the
 * memory fallback keeps it per instance, so during an outage a client can get up to (instances x
 * capacity) in a burst, and buckets restart full on each side of the switch.
 * Logs one warning when an outage starts and one info line when Redis is back; never throws for
 * primary failures.
 */
export class FailoverBucketStore implements BucketStore {
  private down = false;
  private retryAt = 0;

  constructor(
    private readonly primary: BucketStore,
    private readonly fallback: BucketStore,
    private readonly logger: Logger,
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  /** True while the primary store is considered unavailable. */
  get degraded(): boolean {
    return this.down;
  }

  async take(key: string, cost: number, shape: BucketShape, now: number | undefined): Promise<TakeResult> {
    if (this.down && this.monotonic() < this.retryAt) return this.fallback.take(key, cost, shape, now);
    try {
      const result = await this.primary.take(key, cost, shape, now);
      this.markUp();
      return result;
    } catch (err) {
      this.markDown(err);
      return this.fallback.take(key, cost, shape, now);
    }
  }

  private markDown(err: unknown): void {
    this.retryAt = this.monotonic() + RETRY_AFTER_FAILURE_MS;
    if (this.down) return;
    this.down = true;
    const reason = err instanceof Error ? err.message : String(err);
    this.logger.warn(
      { reason, policy: 'fail-open-to-memory' },
      'rate limit store unavailable: using per-instance memory buckets until it recovers',
    );
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info('rate limit store recovered: buckets are shared again');
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
