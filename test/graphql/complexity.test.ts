import { getNamedType, type GraphQLObjectType, isLeafType, isListType, isNonNullType } from 'graphql';
import { describe, expect } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';
import { PAGE_LIMITS } from '../../src/limits.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const ZONE = 'code eic name timeZone validFrom validTo predecessors successors';
const FLOW_ROW = `datetime from { ${ZONE} } to { ${ZONE} } biddingZoneFrom biddingZoneTo flowType flowInterpolated derived
  netFlowMw priceFromEurMwh priceToEurMwh priceDeltaEurMwh capacityMw hours`;
const PAGE =
  'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } meta { provenance upstreamSources resolvedFrom resolvedTo resolution }';
const flowsPage = (first: number, row = FLOW_ROW) =>
  `flows(first: ${first}) { ${PAGE} edges { cursor node { ${row} } } }`;
const PRICE_ROW = `datetime biddingZone zone { ${ZONE} } series priceEurMwh interpolated year`;

/** Names of the fields of `type` that hold a value or a single object (lists of objects excluded). */
function columnNames(typeName: string): string[] {
  const type = schema.getType(typeName) as GraphQLObjectType;
  return Object.values(type.getFields())
    .filter((f) => isLeafType(getNamedType(f.type)) || !isListType(isNonNullType(f.type) ? f.type.ofType : f.type))
    .map((f) => f.name);
}

describe('the GraphQL complexity limit and the documented page maximum', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it);

  const codes = async (query: string) => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as { errors?: { message: string; extensions: { code: string } }[] };
    return body.errors?.map((e) => e.extensions.code) ?? [];
  };

  it('selects every column of a flow row and a price row in these tests', () => {
    for (const name of columnNames('FlowRow')) expect(FLOW_ROW).toMatch(new RegExp(`\\b${name}\\b`));
    // A row's zone is one level down: the budget's widest page selects its leaves only (not coverage).
    for (const name of columnNames('Zone').filter((n) =>
      isLeafType(getNamedType((schema.getType('Zone') as GraphQLObjectType).getFields()[n]!.type)),
    )) {
      expect(ZONE).toMatch(new RegExp(`\\b${name}\\b`));
    }
    for (const name of columnNames('PricePoint')) expect(PRICE_ROW).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('accepts the largest flows page with every column, pageInfo, totalCount and meta', async () => {
    expect(PAGE_LIMITS.flows).toBe(20_000);
    expect(await codes(`{ ${flowsPage(PAGE_LIMITS.flows)} }`)).toEqual([]);
  });

  it('accepts the largest prices page with every column', async () => {
    expect(
      await codes(`{ prices(first: ${PAGE_LIMITS.prices}) { ${PAGE} edges { cursor node { ${PRICE_ROW} } } } }`),
    ).toEqual([]);
  });

  it('still refuses two largest pages in one operation, and a list of objects under every row', async () => {
    expect(await codes(`{ a: ${flowsPage(PAGE_LIMITS.flows)} b: ${flowsPage(PAGE_LIMITS.flows)} }`)).toEqual([
      'QUERY_TOO_COMPLEX',
    ]);
    expect(await codes(`{ a: ${flowsPage(PAGE_LIMITS.flows)} b: ${flowsPage(1_000)} }`)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(
      await codes(`{ ${flowsPage(PAGE_LIMITS.flows, `${FLOW_ROW} extra: from { neighbours { code } }`)} }`),
    ).toEqual(['QUERY_TOO_COMPLEX']);
    expect(
      await codes(
        `{ ${flowsPage(PAGE_LIMITS.flows)} prices(first: ${PAGE_LIMITS.prices}) { edges { node { ${PRICE_ROW} } } } }`,
      ),
    ).toEqual(['QUERY_TOO_COMPLEX']);
  });
});
