/**
 * Admission of subscription streams: starting one spends tokens from the client's rate-limit
 * bucket (like a REST request) and takes one of the client's open-stream slots
 * (SUBSCRIPTIONS_PER_CLIENT per client, per server instance), given back when the stream ends.
 */
import { AppError } from '../errors.js';
import { type AccessContext, recordDecision } from '../security/client.js';
import { rateLimitMessage } from '../security/graphql.js';
import { retryAfterSeconds, type TokenBucketLimiter } from '../security/token-bucket.js';
import { SUBSCRIPTION_COST } from '../limits.js';

/** Admits subscription streams. */
export interface SubscriptionGate {
  /**
   * Admits one stream of the context's client.
   * @returns the function that gives its slot back (call it once, when the stream ends).
   * @throws AppError RATE_LIMITED when the bucket lacks the tokens, SUBSCRIPTION_LIMIT when the
   *   client already has its maximum of open streams.
   */
  admit(context: Partial<AccessContext>): Promise<() => void>;
  /** Open streams of a client (bucket key, e.g. `ip:127.0.0.1`). */
  openOf(clientId: string): number;
}

/** Builds a gate over the shared limiter with at most `perClient` open streams per client. */
export function createSubscriptionGate(
  limiter: Pick<TokenBucketLimiter, 'consume'>,
  perClient: number,
): SubscriptionGate {
  const open = new Map<string, number>();
  return {
    async admit(context) {
      const client = context.client;
      if (!client) throw new Error('subscription: no client in the GraphQL context (is accessPlugin installed?)');
      const count = open.get(client.id) ?? 0;
      if (count >= perClient) {
        throw new AppError(
          'SUBSCRIPTION_LIMIT',
          `Too many open subscriptions: at most ${perClient} per client; close one first`,
          { limit: perClient },
        );
      }
      open.set(client.id, count + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (open.get(client.id) ?? 1) - 1;
        if (left > 0) open.set(client.id, left);
        else open.delete(client.id);
      };
      const decision = await limiter.consume(client.id, SUBSCRIPTION_COST).catch((err: unknown) => {
        release();
        throw err;
      });
      recordDecision(client, decision);
      if (!decision.allowed) {
        release();
        const retryAfter = retryAfterSeconds(decision);
        throw new AppError('RATE_LIMITED', rateLimitMessage(retryAfter), {
          retryAfter,
          http: { status: 429, headers: { 'Retry-After': String(retryAfter) } },
        });
      }
      return release;
    },
    openOf: (clientId) => open.get(clientId) ?? 0,
  };
}
