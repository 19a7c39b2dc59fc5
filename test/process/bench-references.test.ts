import { describe, expect } from 'vitest';
import { checkSameRows, FLOOR_ROUTES, referenceCases, TRIPLES } from '../../bench/floor.js';
import { startFloor } from '../../bench/floor-server.js';
import { graphqlCase } from '../../bench/load.js';
import { type Loopback, listenOnLoopback } from '../../bench/loopback.js';
import { startYogaReference } from '../../bench/yoga-reference.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { DEMO_TEST_NOW } from '../support/db.js';
import { TEST_DATABASE_URL } from '../support/env.js';

type Edges = { data: Record<string, { edges: { node: Record<string, unknown> }[] }> };

/** The node's `keys`, numbers to one decimal (the contract rounds MW so; the references write the driver's values). */
const pick = (node: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, typeof node[k] === 'number' ? Math.round(node[k] * 10) / 10 : node[k]]));
const PRICE_KEYS = ['datetime', 'biddingZone', 'priceEurMwh', 'interpolated'];
const FLOW_KEYS = [
  'datetime',
  'biddingZoneFrom',
  'biddingZoneTo',
  'flowType',
  'flowInterpolated',
  'netFlowMw',
  'priceFromEurMwh',
  'priceToEurMwh',
  'capacityMw',
  'hours',
];

describe.skipIf(!TEST_DATABASE_URL)("the latency bench's references (PostgreSQL)", () => {
  it.override({ backend: 'postgres', seed: 'demo' });
  const t = blockApp(it);
  let app: Loopback;
  let floor: Loopback;
  let yoga: Loopback;

  const references = blockSetup(async () => {
    await Promise.all([yoga?.close(), floor?.close(), app?.close()]);
  });
  it.beforeEach(
    () =>
      references.run(async () => {
        app = await listenOnLoopback(t.app.yoga);
        const deps = { catalogue: t.app.deps.catalogue, now: () => DEMO_TEST_NOW.getTime() };
        floor = await startFloor(TEST_DATABASE_URL!, t.db.schema, deps, FLOOR_ROUTES);
        yoga = await startYogaReference(TEST_DATABASE_URL!, t.db.schema, deps, FLOOR_ROUTES);
      }),
    120_000,
  );

  const graphqlOf = async (base: string, query: string) =>
    (await (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      })
    ).json()) as Edges;

  it.each(TRIPLES.map((triple, i) => [triple.name, i] as const))(
    '%s: floor, app and graphql-yoga alone answer the same rows',
    async (_, i) => {
      const rows = await checkSameRows(app.base, referenceCases(i, { floor: floor.base, yoga: yoga.base }));
      expect(rows).toBeGreaterThan(100);
      const [floorBody, yogaBody] = await Promise.all(
        [floor.base, yoga.base].map(async (b) => (await fetch(`${b}/${i}`)).json()),
      );
      expect(yogaBody).toEqual(floorBody);
    },
  );

  it.each([
    ['prices', 1, PRICE_KEYS],
    ['flows', 2, FLOW_KEYS],
  ] as const)(
    "graphql-yoga alone resolves the app's %s values (to the contract's rounding)",
    async (field, i, keys) => {
      const [ours, alone] = await Promise.all([app.base, yoga.base].map((b) => graphqlOf(b, TRIPLES[i]!.graphql)));
      const nodes = (r: Edges) => r.data[field]!.edges.map((e) => pick(e.node, keys));
      expect(nodes(alone!)).toEqual(nodes(ours!));
    },
  );

  it('refuses to compare a GraphQL answer that carries errors', async () => {
    const failing = graphqlCase(
      'GraphQL unknown zone',
      '{ prices(zones: ["ZZ"], first: 10) { edges { node { datetime } } } }',
    );
    await expect(checkSameRows(app.base, [{ name: 'floor', path: '/1', base: floor.base }, failing])).rejects.toThrow(
      /GraphQL unknown zone: GraphQL errors/,
    );
  });

  it('refuses to compare answers of different row counts', async () => {
    await expect(
      checkSameRows(app.base, [
        { name: 'floor', path: '/0', base: floor.base },
        { name: 'floor native', path: '/1', base: floor.base },
      ]),
    ).rejects.toThrow(/row counts differ/);
  });
});
