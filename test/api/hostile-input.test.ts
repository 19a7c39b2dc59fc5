import { describe, expect } from 'vitest';
import { blockApp, type TestApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const REST_PATHS = [
  'prices',
  'flows',
  'flow-type-summary',
  'ci-share',
  'flow-price-scatter',
  'flow-duration',
  'price-kpis',
  'zone-import-export',
];
const GRAPHQL_FIELDS: Record<string, string> = {
  prices: 'totalCount',
  flows: 'totalCount',
  flowTypeSummary: 'meta { resolvedFrom }',
  ciShare: 'meta { resolvedFrom }',
  flowPriceScatter: 'meta { resolvedFrom }',
  flowDuration: 'meta { resolvedFrom }',
  priceKpis: 'meta { resolvedFrom }',
  zoneImportExport: 'meta { resolvedFrom }',
};

/** Instants that resolve outside 1900-01-01..2200-01-01 UTC, or carry an impossible offset. */
const OUT_OF_RANGE = [
  'now-2026y',
  'now-999999d',
  '0001-01-01',
  '9999-12-31T23:59:59',
  '2024-01-01T00:00:00-99:99',
  '2024-01-01T00:00:00+14:30',
];

type GraphQLBody = {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string; issues?: { param: string; type: string }[] } }[];
};

async function graphql(t: TestApp, query: string): Promise<GraphQLBody> {
  const res = await t.get('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as GraphQLBody;
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');

describe.each(TEST_BACKENDS)('hostile input answered as client errors, on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 10_000 } });

  it('answers 422 naming the parameter when a datetime resolves outside the supported range, on every REST endpoint', async () => {
    for (const path of REST_PATHS) {
      for (const value of OUT_OF_RANGE) {
        for (const param of ['datetime_from', 'datetime_to']) {
          const res = await t.get(`/api/v1/${path}?${param}=${encodeURIComponent(value)}`);
          expect(res.status, `${path} ${param}=${value}`).toBe(422);
          const body = (await res.json()) as { detail: { loc: string[]; input: string }[] };
          expect(
            body.detail.map((d) => d.loc),
            `${path} ${param}=${value}`,
          ).toEqual([['query', param]]);
          expect(body.detail[0]?.input).toBe(value);
        }
      }
    }
  });

  it('serves the bounds of the supported range on every REST endpoint', async () => {
    for (const path of REST_PATHS) {
      const res = await t.get(`/api/v1/${path}?datetime_from=1900-01-01&datetime_to=2200-01-01T00:00:00Z`);
      expect(res.status, path).toBe(200);
    }
  });

  it('answers BAD_USER_INPUT naming from or to for datetimes outside the supported range, on every GraphQL field', async () => {
    for (const [field, selection] of Object.entries(GRAPHQL_FIELDS)) {
      for (const value of OUT_OF_RANGE) {
        for (const arg of ['from', 'to']) {
          const body = await graphql(t, `{ ${field}(${arg}: ${JSON.stringify(value)}) { ${selection} } }`);
          expect(
            body.errors?.map((e) => e.extensions?.code),
            `${field} ${arg}=${value}`,
          ).toEqual(['BAD_USER_INPUT']);
          expect(body.errors?.[0]?.extensions?.issues?.map((i) => i.param)).toEqual([arg]);
        }
      }
    }
  });

  it('answers BAD_USER_INPUT on after for cursors that are not base64url JSON of the right shape, on prices and flows', async () => {
    const t0 = '2025-10-01T00:00:00.000Z';
    const bad = [
      'not base64!',
      '%%%',
      b64('not json'),
      b64('{"a":1}'),
      b64('["x","DE_LU"]'),
      b64('[null,null]'),
      b64('[null,null,null,null]'),
      b64(`["${t0}"]`),
      b64(`["${t0}","DE_LU","FR","congestion","extra"]`),
      b64(`[1e308,"DE_LU"]`),
      b64(`[${Date.now()},"DE_LU"]`),
      b64(`["+275760-09-13T00:00:00.000Z","DE_LU"]`),
      b64(`["1200-01-01T00:00:00.000Z","DE_LU"]`),
      b64(`["${t0}",42]`),
      b64(`["${t0}",""]`),
      b64(`["${t0}","DE_LU","FR","sideways"]`),
      b64(`["${t0}","DE_LU","FR",1]`),
    ];
    for (const field of ['prices', 'flows']) {
      for (const cursor of bad) {
        const body = await graphql(t, `{ ${field}(after: ${JSON.stringify(cursor)}) { totalCount } }`);
        const label = `${field} ${Buffer.from(cursor, 'base64url').toString()}`;
        expect(
          body.errors?.map((e) => e.extensions?.code),
          label,
        ).toEqual(['BAD_USER_INPUT']);
        expect(body.errors?.[0]?.message, label).toMatch(/^after: Invalid cursor/);
      }
    }
  });

  it('accepts cursors of the shape the connections hand out', async () => {
    const prices = await graphql(
      t,
      `{ prices(after: ${JSON.stringify(b64('["2025-10-01T00:00:00.000Z","DE_LU"]'))}) { totalCount } }`,
    );
    expect(prices.errors).toBeUndefined();
    const flows = await graphql(
      t,
      `{ flows(after: ${JSON.stringify(b64('["2025-10-01T00:00:00.000Z","DE_LU","FR","congestion"]'))}) { totalCount } }`,
    );
    expect(flows.errors).toBeUndefined();
  });
});
