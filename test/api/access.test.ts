import { describe, expect } from 'vitest';
import { createApiKey } from '../../src/security/api-keys.js';
import { graphql } from '../gql/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const TwoRootFields = graphql(`
  query TwoRootFields { zones { code } borders { key } }
`);

describe('access control of the real app: one token bucket for REST and GraphQL', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 5, RATE_LIMIT_REFILL_PER_SECOND: 0.001 } });

  it('spends one token per REST request and one per GraphQL root field from the same bucket, then answers 429', async () => {
    const first = await t.get('/api/v1/prices?datetime_from=2025-10-01&datetime_to=2025-10-02');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('5');
    expect(first.headers.get('ratelimit-remaining')).toBe('4');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const gql = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query { zones { code } borders { key } }' }),
    });
    expect(gql.status).toBe(200);
    expect(gql.headers.get('ratelimit-remaining')).toBe('2');
    expect((await t.graphql(TwoRootFields)).data?.zones.length).toBeGreaterThan(40);
    const refused = await t.get('/api/v1/prices');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ detail: expect.stringMatching(/rate limit/i) });
  });

  it('does not meter probes, and counts requests and rejections in /metrics', async () => {
    expect((await t.get('/healthz')).status).toBe(200);
    const metrics = await (await t.get('/metrics')).text();
    expect(metrics).toMatch(/http_requests_total\{[^}]*route="\/api\/v1\/prices"[^}]*status="200"[^}]*\} 1/);
    expect(metrics).toMatch(/rate_limit_rejections_total\{surface="rest"\} [1-9]/);
  });
});

describe('API keys on the real app', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it, { config: { API_KEY_REQUIRED: true } });

  it('rejects a missing or unknown key with 401 and accepts a created one, bucketed per key', async () => {
    expect((await t.get('/api/v1/prices')).status).toBe(401);
    const unknown = await t.get('/api/v1/prices', { headers: { 'x-api-key': 'emk_invented' } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ detail: expect.any(String) });
    const { key } = await createApiKey(t.db, 'test client');
    const ok = await t.get('/api/v1/prices', { headers: { 'x-api-key': key } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('199');
    expect((await t.get('/api/v1/openapi.json')).status).toBe(200);
  });
});

describe('GraphQL operation limits', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it);
  const post = async (body: unknown) => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as any };
  };

  it('counts page sizes: a huge page of a deep selection is refused before any resolver runs, spending no token', async () => {
    const ok = await post({
      query: '{ flows(first: 1000) { edges { node { datetime from { code } to { code } } } } }',
    });
    expect(ok.json.errors).toBeUndefined();
    const remaining = Number((await t.get('/healthz')).headers.get('ratelimit-remaining'));
    const big = await post({
      query:
        'query Big($n: Int) { a: flows(first: $n) { edges { node { datetime from { code name eic timeZone neighbours { code name eic timeZone } } } } } b: zones { code } }',
      variables: { n: 20000 },
    });
    expect(big.json).toEqual({
      errors: [
        {
          message: expect.stringMatching(/^Query complexity \d+ exceeds the limit of \d+$/),
          extensions: { code: 'QUERY_TOO_COMPLEX' },
        },
      ],
    });
    expect(Number((await t.get('/healthz')).headers.get('ratelimit-remaining'))).toBe(remaining);
  });

  it("scores a repeated document with each request's own variables", async () => {
    const query =
      'query Pages($n: Int, $z: [String!]) { a: flows(first: $n, zones: $z) { edges { node { datetime from { code name eic timeZone neighbours { code name eic timeZone } } } } } }';
    const codes = async (n: number, z?: string[]) =>
      (await post({ query, variables: { n, z } })).json.errors?.map((e: any) => e.extensions.code) ?? [];
    expect(await codes(10)).toEqual([]);
    expect(await codes(20000)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(await codes(10)).toEqual([]);
    expect(await codes(20000)).toEqual(['QUERY_TOO_COMPLEX']);
    const manyZones = Array.from({ length: 100 }, () => 'DE_LU');
    expect(await codes(20000, manyZones)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(await codes(10, manyZones)).toEqual([]);
  });

  it('refuses a page larger than the maximum page size with a coded input error', async () => {
    const res = await post({ query: '{ prices(first: 10001) { totalCount } }' });
    expect(res.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.json.errors[0].message).toMatch(/first/);
  });

  it('limits depth and breadth (aliases count)', async () => {
    const deep = await post({
      query:
        '{ zone(code: "FR") { neighbours { neighbours { neighbours { neighbours { neighbours { neighbours { neighbours { neighbours { neighbours { code } } } } } } } } } } }',
    });
    expect(deep.json.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    const aliases = Array.from({ length: 130 }, (_, i) => `a${i}: zones { code }`).join(' ');
    expect((await post({ query: `{ ${aliases} }` })).json.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('rejects batched operations', async () => {
    const res = await post([{ query: '{ zones { code } }' }, { query: '{ zones { code } }' }]);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('production switches on the real app', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it, { config: { GRAPHIQL: false, GRAPHQL_INTROSPECTION: false } });

  it('serve no GraphiQL page and answer no introspection, while operations still run', async () => {
    const page = await t.get('/graphql', { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    expect(await page.text()).not.toMatch(/GraphiQL/i);
    const post = (query: string) =>
      t.get('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    const introspection = (await (await post('{ __schema { types { name } } }')).json()) as any;
    expect(introspection.data).toBeUndefined();
    expect(introspection.errors[0].message).toMatch(/introspection/i);
    expect(((await (await post('{ zones { code } }')).json()) as any).data.zones.length).toBeGreaterThan(40);
  });
});
