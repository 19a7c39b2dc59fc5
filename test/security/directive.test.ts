import SchemaBuilder from '@pothos/core';
import DirectivesPlugin from '@pothos/plugin-directives';
import { printSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { type AccessContext, addressBucket, clientAddress } from '../../src/security/client.js';
import {
  fieldCost,
  graphqlRateLimit,
  rateLimitDirectiveDefinition,
  TokenBucketRateLimiter,
} from '../../src/security/graphql.js';
import { MemoryBucketStore } from '../../src/security/memory-store.js';
import { accessPlugin } from '../../src/security/plugin.js';
import { TokenBucketLimiter } from '../../src/security/token-bucket.js';
import { captureLogger, manualClock } from './support.js';

const bucket = () =>
  new TokenBucketLimiter({
    capacity: 200,
    refillPerSecond: 2,
    store: new MemoryBucketStore(),
    clock: manualClock().now,
  });

describe('cost of a @rateLimit field', () => {
  const shape = { capacity: 200, refillPerSecond: 2 };
  it('is ceil(refill * duration / limit): at the default refill of 2, the defaults (120 per 60 s) cost 1 token, like a REST request', () => {
    expect(fieldCost({}, shape)).toBe(1);
    expect(fieldCost({ limit: 120, duration: 60 }, shape)).toBe(1);
    expect(fieldCost({ limit: 60, duration: 60 }, shape)).toBe(2);
    expect(fieldCost({ limit: 12, duration: 60 }, shape)).toBe(10);
    expect(fieldCost({ limit: 1000, duration: 1 }, shape)).toBe(1);
    expect(fieldCost({ limit: 1, duration: 3600 }, shape)).toBe(200);
    expect(() => fieldCost({ limit: 0, duration: 60 }, shape)).toThrow(RangeError);
  });
  it('follows the refill rate: at 5 tokens per second a declared rate costs 2.5 times more, and the defaults still cost 1', () => {
    const fast = { capacity: 200, refillPerSecond: 5 };
    expect(fieldCost({}, fast)).toBe(1);
    expect(fieldCost({ duration: 10 }, fast)).toBe(1);
    expect(fieldCost({ limit: 60, duration: 60 }, fast)).toBe(5);
    expect(fieldCost({ limit: 12, duration: 60 }, fast)).toBe(25);
    expect(fieldCost({ limit: 120, duration: 60 }, fast)).toBe(3);
  });
});

describe('TokenBucketRateLimiter, as graphql-rate-limit-directive uses it', () => {
  it('resolves with a RateLimiterRes and rejects with one (not an Error) when the bucket is empty', async () => {
    const limiter = new TokenBucketRateLimiter({ bucket: bucket(), keyPrefix: 'rateLimit', points: 60, duration: 60 });
    const ok = await limiter.consume('ip:1');
    expect(ok).toBeInstanceOf(RateLimiterRes);
    expect(ok.toJSON()).toEqual({ remainingPoints: 198, msBeforeNext: 0, consumedPoints: 2, isFirstInDuration: false });
    for (let i = 0; i < 99; i++) await limiter.consume('ip:1');
    const refused = await limiter.consume('ip:1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect(refused).not.toBeInstanceOf(Error);
    expect((refused as RateLimiterRes).msBeforeNext).toBe(1000);
    expect((await limiter.get('ip:1')).remainingPoints).toBe(0);
  });
});

describe('wiring with Pothos (plugin-directives, unordered graphql-tools format)', () => {
  it('charges root fields through the directive and prints the directive in the schema', async () => {
    const builder = new SchemaBuilder<{
      Context: AccessContext;
      Directives: {
        rateLimit: { locations: 'FIELD_DEFINITION' | 'OBJECT'; args: { limit?: number; duration?: number } };
      };
    }>({ plugins: [DirectivesPlugin], directives: { useGraphQLToolsUnorderedDirectives: true } });
    builder.queryType({
      fields: (t) => ({
        prices: t.string({ directives: { rateLimit: {} }, resolve: () => 'p' }),
        flows: t.string({ directives: { rateLimit: { limit: 60, duration: 60 } }, resolve: () => 'f' }),
      }),
    });
    const limiter = bucket();
    const schema = graphqlRateLimit(limiter).rateLimitDirectiveTransformer(
      builder.toSchema({ directives: [rateLimitDirectiveDefinition] }),
    );
    expect(printSchema(schema)).toContain('directive @rateLimit(');
    const keys = { authenticate: async () => 1 };
    const yoga = createYoga({
      schema,
      logging: false,
      plugins: [
        accessPlugin({
          limiter,
          keys,
          requireKey: false,
          trustProxy: false,
          logger: captureLogger().logger,
          timeoutMs: 30_000,
          graphiql: false,
        }),
      ],
    });
    const ask = async (query: string) => {
      const res = await yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      return { body: await res.json(), remaining: res.headers.get('ratelimit-remaining') };
    };
    expect(await ask('{ prices }')).toEqual({ body: { data: { prices: 'p' } }, remaining: '199' });
    expect((await ask('{ flows }')).remaining).toBe('197');
    expect((await ask('{ prices flows }')).remaining).toBe('194');
  });
});

describe('client address helpers', () => {
  const ctx = (remoteAddress: string) => ({ req: { socket: { remoteAddress } } });
  it('use the socket address, unmapping IPv4-in-IPv6', () => {
    expect(clientAddress(ctx('::ffff:192.0.2.1'), '198.51.100.9', 0)).toBe('192.0.2.1');
    expect(clientAddress(undefined, null, 0)).toBe('unknown');
  });
  it('read X-Forwarded-For from the right, as many hops as are trusted, and ignore garbage', () => {
    expect(clientAddress(ctx('10.0.0.1'), '6.6.6.6, 198.51.100.9', 1)).toBe('198.51.100.9');
    expect(clientAddress(ctx('10.0.0.1'), '198.51.100.9, 10.0.0.5', 2)).toBe('198.51.100.9');
    expect(clientAddress(ctx('10.0.0.1'), '198.51.100.9', 5)).toBe('198.51.100.9');
    expect(clientAddress(ctx('10.0.0.1'), 'not-an-ip', 1)).toBe('10.0.0.1');
  });
  it('group IPv6 clients by /64', () => {
    expect(addressBucket('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(addressBucket('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('192.0.2.1')).toBe('192.0.2.1');
  });
});
