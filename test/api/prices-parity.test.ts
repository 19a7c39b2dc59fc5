import { describe, expect } from 'vitest';
import { graphql } from '../gql/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const PricesQuery = graphql(`
  query Prices($zones: [String!], $from: String, $to: String, $resolution: Resolution, $first: Int, $after: String) {
    prices(zones: $zones, from: $from, to: $to, resolution: $resolution, first: $first, after: $after) {
      totalCount
      meta { provenance upstreamSources resolvedFrom resolvedTo resolution }
      pageInfo { hasNextPage endCursor }
      edges { node { datetime biddingZone priceEurMwh interpolated year zone { eic } } }
    }
  }
`);

const RESOLUTION_ENUM = { native: 'NATIVE', '1H': 'HOURLY', '1D': 'DAILY', '1W': 'WEEKLY' } as const;

describe.each(TEST_BACKENDS)('prices through GraphQL on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);

  const cases = [
    { zones: ['DE_LU', 'FR'], from: '2025-10-25', to: '2025-10-27', resolution: 'native' },
    { zones: ['NO_2'], from: '2025-09-28', to: '2025-10-04', resolution: '1H' },
    { zones: undefined, from: 'now-30d', to: 'now', resolution: '1D' },
    { zones: ['ES', 'PT'], from: '2025-09-22', to: '2025-11-05', resolution: '1W' },
  ] as const;

  it.each(cases)('returns the numbers REST returns for $resolution', async (c) => {
    const qs = new URLSearchParams({ datetime_from: c.from, datetime_to: c.to, resolution: c.resolution });
    for (const z of c.zones ?? []) qs.append('zone', z);
    const rest = (await (await t.get(`/api/v1/prices?${qs}`)).json()) as any;
    const gql = await t.graphql(PricesQuery, {
      zones: c.zones ? [...c.zones] : null,
      from: c.from,
      to: c.to,
      resolution: RESOLUTION_ENUM[c.resolution],
      first: 10_000,
    });
    expect(gql.errors).toBeUndefined();
    const conn = gql.data!.prices;
    expect(rest.data.length).toBeGreaterThan(0);
    expect(conn.totalCount).toBe(rest.data.length);
    expect(
      conn.edges.map((e) => ({
        datetime: e.node.datetime,
        bidding_zone: e.node.biddingZone,
        price_mwh: e.node.priceEurMwh,
        interpolated: e.node.interpolated,
        year: e.node.year,
      })),
    ).toEqual(rest.data);
    expect(conn.meta.resolution).toBe(RESOLUTION_ENUM[c.resolution]);
    expect(conn.meta.upstreamSources).toEqual(rest.meta.upstream_sources);
    expect(conn.meta.resolvedFrom?.replace(/Z$/, '')).toBe(rest.meta.resolved_datetime_from);
  });

  it('walks keyset pages to exactly the unpaged rows', async () => {
    const vars = { zones: ['DE_LU', 'FR', 'NL'], from: '2025-10-25', to: '2025-10-27', resolution: 'NATIVE' as const };
    const all = (await t.graphql(PricesQuery, { ...vars, first: 10_000 })).data!.prices.edges.map((e) => e.node);
    const walked: typeof all = [];
    let after: string | null | undefined = null;
    for (let i = 0; i < 100; i++) {
      const page: any = (await t.graphql(PricesQuery, { ...vars, first: 97, after })).data!.prices;
      walked.push(...page.edges.map((e: any) => e.node));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(walked).toEqual(all);
    expect(all.length).toBe(3 * 48 * 4);
  });

  it('rejects invalid arguments with coded errors naming the argument', async () => {
    const bad = await t.graphql(PricesQuery, { zones: ['ATLANTIS'] });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.message).toMatch(/zones/);
    const reversed = await t.graphql(PricesQuery, { from: '2025-10-05', to: '2025-10-01' });
    expect(reversed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const page = await t.graphql(PricesQuery, { first: 0 });
    expect(page.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const cursor = await t.graphql(PricesQuery, { after: 'not-a-cursor' });
    expect(cursor.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
