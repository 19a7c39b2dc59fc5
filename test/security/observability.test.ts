import { describe, expect, it } from 'vitest';
import { createMetrics, routeLabel } from '../../src/ops/metrics.js';
import { API_CSP, corsOptions, GRAPHIQL_CSP, parseOrigins, SWAGGER_CSP } from '../../src/http/security-headers.js';
import { MemoryBucketStore } from '../../src/security/memory-store.js';
import { TokenBucketLimiter } from '../../src/security/token-bucket.js';
import { captureLogger, testServer } from './support.js';

const limiter = () => new TokenBucketLimiter({ capacity: 200, refillPerSecond: 2, store: new MemoryBucketStore() });

describe('request log', () => {
  it('writes one JSON line per request with method, path without query, status, duration, key id', async () => {
    const log = captureLogger();
    const { send } = testServer({ limiter: limiter(), logger: log.logger, keys: { authenticate: async () => 42 } });
    await send('/api/v1/ping?token=secret-value', { headers: { 'x-api-key': 'emk_whatever' } });
    const lines = log.records().filter((r) => r['msg'] === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, method: 'GET', path: '/api/v1/ping', status: 200, keyId: 42 });
    expect(typeof lines[0]!['durationMs']).toBe('number');
    expect(log.lines.join('\n')).not.toContain('secret-value');
  });

  it('carries the error id of a REST 500 and of a masked GraphQL error', async () => {
    const log = captureLogger();
    const { send, gql } = testServer({ limiter: limiter(), logger: log.logger });
    await send('/api/v1/fail');
    await gql('{ boom }');
    const [rest, graphql] = log.records().filter((r) => r['msg'] === 'request');
    expect(rest).toMatchObject({ status: 500, errorId: 'err-123', keyId: null });
    const logged = log.records().find((r) => r['msg'] === 'unhandled GraphQL error');
    expect(graphql).toMatchObject({ path: '/graphql', errorId: logged?.['errorId'] });
  });

  it('logs probes and /metrics at debug level only', async () => {
    const log = captureLogger();
    const { send } = testServer({ limiter: limiter(), logger: log.logger });
    await send('/healthz');
    await send('/metrics');
    expect(log.records().map((r) => [r['path'], r['level']])).toEqual([
      ['/healthz', 20],
      ['/metrics', 20],
    ]);
  });
});

describe('metrics', () => {
  it('serve Prometheus text with request counts and latency by route and status, unknown paths as other', async () => {
    const { send, gql } = testServer({ limiter: limiter() });
    await send('/api/v1/ping');
    await send('/api/v1/ping');
    await send('/api/v1/nowhere-1');
    await send('/random/path');
    await gql('query Prices { hello }');
    const res = await send('/metrics');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('http_requests_total{method="GET",route="/api/v1/ping",status="200"} 2');
    expect(text).toContain('http_requests_total{method="POST",route="/graphql",status="200"} 1');
    expect(text).toMatch(/http_requests_total\{method="GET",route="other",status="\d+"\} 2/);
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/api/v1/ping",status="200"} 2');
    expect(text).toContain('graphql_operation_duration_seconds_count{operation="Prices",type="query"} 1');
    expect(text).toContain('# TYPE rate_limit_rejections_total counter');
  });

  it('keep one registry per app and bound the operation names', async () => {
    const a = createMetrics({ defaultMetrics: false });
    const b = createMetrics({ defaultMetrics: false });
    for (let i = 0; i < 250; i++) a.observeOperation(`Op${i}`, 'query', 0.01);
    const text = await a.registry.metrics();
    expect(text).toContain('operation="Op199"');
    expect(text).not.toContain('operation="Op200"');
    expect(text).toContain('graphql_operation_duration_seconds_count{operation="other",type="query"} 50');
    expect(await b.registry.metrics()).not.toContain('Op1');
    expect(routeLabel('/api/v1/prices/', new Set(['/api/v1/prices']))).toBe('/api/v1/prices');
  });
});

describe('security headers and CORS', () => {
  it('put nosniff, no-referrer, DENY and a locked-down CSP on API responses, 4xx included', async () => {
    const { send } = testServer({ limiter: limiter() });
    for (const res of [await send('/api/v1/ping'), await send('/api/v1/ping', { headers: { 'x-api-key': 'bad' } })]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
    }
  });

  it('relax the CSP only on the GraphiQL and Swagger UI pages', async () => {
    const { send } = testServer({ limiter: limiter() });
    const graphiql = await send('/graphql', { headers: { accept: 'text/html' } });
    expect(graphiql.headers.get('content-type')).toMatch(/text\/html/);
    expect(graphiql.headers.get('content-security-policy')).toBe(GRAPHIQL_CSP);
    expect(GRAPHIQL_CSP).toMatch(/script-src 'self' 'unsafe-inline' blob:/);
    expect(GRAPHIQL_CSP).toMatch(/worker-src 'self' blob:/);
    expect((await send('/api/v1/docs')).headers.get('content-security-policy')).toBe(SWAGGER_CSP);
  });

  it('allow any origin without credentials by default, and only listed origins when configured', async () => {
    const open = testServer({ limiter: limiter() });
    const res = await open.send('/api/v1/ping', { headers: { origin: 'https://anywhere.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    const closed = testServer({ limiter: limiter(), origins: parseOrigins('https://a.example, https://b.example') });
    const allowed = await closed.send('/api/v1/ping', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://b.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://b.example');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('x-api-key');
    const denied = await closed.send('/api/v1/ping', { headers: { origin: 'https://evil.example' } });
    expect(denied.headers.get('access-control-allow-origin')).toBe('null');
    expect(parseOrigins('')).toEqual(['*']);
    expect(corsOptions(['*'])).toMatchObject({ origin: '*', credentials: false });
  });

  it('tell a preflight that POST is allowed on /graphql only, and read methods everywhere else', async () => {
    const { send } = testServer({ limiter: limiter() });
    const preflight = (path: string) =>
      send(path, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
    for (const path of ['/api/v1/ping', '/api/v1/prices/', '/api/v1', '/healthz', '/']) {
      expect((await preflight(path)).headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    }
    for (const path of ['/graphql', '/graphql/']) {
      expect((await preflight(path)).headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    }
  });
});
