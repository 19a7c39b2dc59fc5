import { parse, validate } from 'graphql';
import { describe, expect } from 'vitest';
import { GRAPHIQL_DEFAULT_QUERY } from '../../src/graphql/graphiql.js';
import { schema } from '../../src/graphql/schema/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

describe('GraphiQL default query and the probe paths', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it);

  it('opens GraphiQL on a default query that is valid against the schema', async () => {
    expect(validate(schema, parse(GRAPHIQL_DEFAULT_QUERY))).toEqual([]);
    const page = await (await t.get('/graphql', { headers: { accept: 'text/html' } })).text();
    expect(
      page.includes(`"defaultQuery":${JSON.stringify(GRAPHIQL_DEFAULT_QUERY)}`),
      'the page passes the default query to GraphiQL',
    ).toBe(true);
  });

  it('answers the default query with the last 48 hours of DE_LU quarter-hour prices in one page', async () => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: GRAPHIQL_DEFAULT_QUERY }),
    });
    const body = (await res.json()) as {
      errors?: unknown;
      data: {
        prices: {
          meta: { resolution: string; resolvedFrom: string };
          totalCount: number;
          edges: { node: { datetime: string } }[];
        };
      };
    };
    expect(body.errors).toBeUndefined();
    const { meta, totalCount, edges } = body.data.prices;
    expect(meta.resolution).toBe('NATIVE');
    expect(new Date(meta.resolvedFrom).toISOString()).toBe('2025-11-03T12:00:00.000Z');
    expect(totalCount).toBe(48 * 4);
    expect(edges).toHaveLength(totalCount);
  });

  it('answers /health 404 like any unknown path, and /healthz with its JSON', async () => {
    const health = await t.get('/health');
    expect([health.status, await health.json()]).toEqual([404, { detail: 'Not Found' }]);
    expect((await t.get('/health/')).status).toBe(404);
    expect((await t.get('/api/v1/health')).status).toBe(404);
    const healthz = await t.get('/healthz');
    expect([healthz.status, await healthz.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('no longer answers an empty 200 to a request whose URL merely ends with /health', async () => {
    const res = await t.get('/api/v1/prices?zone=/health');
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].loc).toEqual(['query', 'zone']);
  });
});
