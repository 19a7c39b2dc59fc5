import { beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { createRateLimiter } from '../../src/security/limiter.js';
import { MemoryBucketStore } from '../../src/security/memory-store.js';
import { TokenBucketLimiter } from '../../src/security/token-bucket.js';
import { captureLogger, manualClock, testServer, type TestServerOptions } from './support.js';

const GOOD_KEY = 'emk_good';
const keys = {
  async authenticate(value: string): Promise<number> {
    if (value === GOOD_KEY) return 7;
    if (value === 'emk_db_down') throw new AppError('DATABASE_UNAVAILABLE', 'Service Unavailable');
    throw new AppError('UNAUTHENTICATED', 'Invalid API key');
  },
};

let clock: ReturnType<typeof manualClock>;
let limiter: TokenBucketLimiter;
beforeEach(() => {
  clock = manualClock();
  limiter = new TokenBucketLimiter({
    capacity: 200,
    refillPerSecond: 2,
    store: new MemoryBucketStore(),
    clock: clock.now,
  });
});

const server = (opts: Partial<TestServerOptions> = {}) => testServer({ limiter, keys, ...opts });
const limitHeaders = (res: Response) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  retryAfter: res.headers.get('retry-after'),
});

async function drain(send: () => Promise<Response>, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await send()).status);
  return statuses;
}

describe('REST requests', () => {
  it('spend one token each and carry the RateLimit headers', async () => {
    const { send } = server();
    const res = await send('/api/v1/ping');
    expect(res.status).toBe(200);
    expect(limitHeaders(res)).toEqual({ limit: '200', remaining: '199', reset: '1', retryAfter: null });
  });

  it('pass 200 times, then answer 429 with Retry-After 1 and a JSON detail; 1.5 s later exactly 3 more pass', async () => {
    const { send, metrics } = server();
    const statuses = await drain(() => send('/api/v1/ping'), 200);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await send('/api/v1/ping');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/json/);
    expect(await refused.json()).toEqual({ detail: 'Too many requests: the rate limit is exceeded, retry in 1 s' });
    expect(limitHeaders(refused)).toEqual({ limit: '200', remaining: '0', reset: '100', retryAfter: '1' });
    clock.advance(1500);
    expect(await drain(() => send('/api/v1/ping'), 4)).toEqual([200, 200, 200, 429]);
    expect(await metrics.registry.getSingleMetricAsString('rate_limit_rejections_total')).toMatch(/surface="rest"} 2/);
  });

  it('leave the OpenAPI documents, probes, preflights and /metrics free, yet show the caller their bucket', async () => {
    const { send } = server();
    await send('/api/v1/ping');
    const docs = await send('/api/v1/docs');
    expect(docs.status).toBe(200);
    const health = await send('/healthz');
    expect(health.status).toBe(200);
    const metrics = await send('/metrics');
    const preflight = await send('/api/v1/ping', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    for (const res of [docs, health, metrics, preflight])
      expect(limitHeaders(res)).toEqual({ limit: '200', remaining: '199', reset: '1', retryAfter: null });
  });
});

describe('GraphQL operations', () => {
  it('spend 1 token for one default-limited root field, like a REST request', async () => {
    const { gql } = server();
    const res = await gql('{ hello }');
    expect(await res.json()).toEqual({ data: { hello: 'hi' } });
    expect(limitHeaders(res).remaining).toBe('199');
  });

  it('spend the sum of their root field costs; unlimited fields and introspection are free', async () => {
    const { gql } = server();
    expect(limitHeaders(await gql('{ hello world }')).remaining).toBe('198');
    expect(limitHeaders(await gql('{ heavy }')).remaining).toBe('188'); // limit 12 per 60 s: 10 tokens
    expect(limitHeaders(await gql('{ free __typename }')).remaining).toBe('188');
    expect(limitHeaders(await gql('{ __schema { queryType { name } } }')).remaining).toBe('188');
  });

  it('cost and refill at RATE_LIMIT_REFILL_PER_SECOND: at 5 per second a default field costs 1, a field limited to 12 per minute 25, refilled in 5 s', async () => {
    const fast = createRateLimiter(testConfig({ RATE_LIMIT_REFILL_PER_SECOND: 5 }), {
      logger: captureLogger().logger,
      clock: clock.now,
    });
    const { gql } = server({ limiter: fast });
    expect(limitHeaders(await gql('{ hello }')).remaining).toBe('199');
    expect(limitHeaders(await gql('{ heavy }')).remaining).toBe('174');
    clock.advance(5_000);
    expect(limitHeaders(await gql('{ hello }')).remaining).toBe('198');
    await drain(() => gql('{ heavy }'), 7);
    const refused = await gql('{ heavy }');
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ remaining: '23', retryAfter: '1' });
  });

  it('share the bucket with REST and answer 429 with Retry-After when it is empty', async () => {
    const { gql, send, metrics } = server();
    await drain(() => send('/api/v1/ping'), 199);
    expect((await gql('{ hello }')).status).toBe(200);
    const refused = await gql('{ hello }');
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ remaining: '0', retryAfter: '1' });
    const body = (await refused.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED', retryAfter: 1 } });
    expect((await send('/api/v1/ping')).status).toBe(429);
    expect(await metrics.registry.getSingleMetricAsString('rate_limit_rejections_total')).toMatch(
      /surface="graphql"} 1/,
    );
  });
});

describe('client address', () => {
  it('comes from the socket; X-Forwarded-For is ignored unless proxies are trusted', async () => {
    const { send } = server();
    await send('/api/v1/ping', { headers: { 'x-forwarded-for': '198.51.100.1' } });
    const res = await send('/api/v1/ping', { headers: { 'x-forwarded-for': '198.51.100.2' } });
    expect(limitHeaders(res).remaining).toBe('198'); // same socket, same bucket
    expect(limitHeaders(await send('/api/v1/ping', {}, '192.0.2.9')).remaining).toBe('199');
  });

  it('behind one trusted proxy is the last X-Forwarded-For entry; forged entries before it do not matter', async () => {
    const { send } = server({ trustProxy: true });
    const proxy = '10.0.0.2';
    await send('/api/v1/ping', { headers: { 'x-forwarded-for': '198.51.100.1' } }, proxy);
    const forged = await send('/api/v1/ping', { headers: { 'x-forwarded-for': '1.1.1.1, 198.51.100.1' } }, proxy);
    expect(limitHeaders(forged).remaining).toBe('198');
    const other = await send('/api/v1/ping', { headers: { 'x-forwarded-for': '198.51.100.2' } }, proxy);
    expect(limitHeaders(other).remaining).toBe('199');
  });
});

describe('API keys', () => {
  it('an unknown key is 401 with a JSON detail, charged to the address', async () => {
    const { send } = server();
    const res = await send('/api/v1/ping', { headers: { 'x-api-key': 'emk_invented' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'Invalid API key' });
    expect(limitHeaders(res).remaining).toBe('199');
    expect(limitHeaders(await send('/api/v1/ping')).remaining).toBe('198');
  });

  it('an unknown key on GraphQL is 401 too, as a GraphQL response with the UNAUTHENTICATED code and a challenge', async () => {
    const { gql } = server();
    const res = await gql('{ free }', { 'x-api-key': 'nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('ApiKey header="x-api-key"');
    expect(await res.json()).toEqual({
      errors: [{ message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } }],
    });
  });

  it('guessing keys is rate limited: 429 once the address bucket is empty', async () => {
    const { send } = server();
    const statuses = await drain(() => send('/api/v1/ping', { headers: { 'x-api-key': 'emk_guess' } }), 201);
    expect(statuses.slice(0, 200).every((s) => s === 401)).toBe(true);
    expect(statuses[200]).toBe(429);
  });

  it('a valid key spends from its own bucket, on REST and GraphQL', async () => {
    const { send, gql } = server();
    await drain(() => send('/api/v1/ping'), 200);
    const withKey = await send('/api/v1/ping', { headers: { 'x-api-key': GOOD_KEY } });
    expect(withKey.status).toBe(200);
    expect(limitHeaders(withKey).remaining).toBe('199');
    expect(limitHeaders(await gql('{ hello }', { 'x-api-key': GOOD_KEY })).remaining).toBe('198');
  });

  it('with keys required, a missing key is 401 but the documents, probes and preflights still answer', async () => {
    const { send, gql } = server({ requireKey: true });
    const res = await send('/api/v1/ping');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'Missing API key: send it in the x-api-key header' });
    expect((await gql('{ free }')).status).toBe(401);
    expect((await send('/api/v1/ping', { headers: { 'x-api-key': GOOD_KEY } })).status).toBe(200);
    expect((await send('/api/v1/docs')).status).toBe(200);
    expect((await send('/healthz')).status).toBe(200);
    const preflight = await send('/api/v1/ping', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
  });

  it('a key store failure is 503, not 401 or 500', async () => {
    const { send } = server();
    const res = await send('/api/v1/ping', { headers: { 'x-api-key': 'emk_db_down' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: 'Service Unavailable' });
    expect(limitHeaders(res)).toMatchObject({ limit: '200', remaining: '200' });
  });
});
