/**
 * The PostgreSQL latency leg of `npm run bench`: each measured request through REST, GraphQL, the
 * floor (bench/floor-server.ts, the same statements from a bare node:http server) and graphql-yoga
 * alone (bench/yoga-reference.ts, the same rows through Yoga and graphql-jit without the app), in
 * interleaved rounds at each connection count, with REST's and GraphQL's p50 as multiples of the
 * floor's against the targets of issue 17 (REST <= 1.3x, GraphQL <= 1.5x), and of Yoga alone's.
 */
import type { Database } from '../src/db/client.js';
import { readCatalogue } from '../src/repositories/catalogue/catalogue.js';
import { type FloorRoute, startFloor } from './floor-server.js';
import { type BenchCase, type BenchResult, graphqlCase, measureInterleaved } from './load.js';
import { startYogaReference } from './yoga-reference.js';

const META = 'meta { provenance upstreamSources resolvedFrom resolvedTo resolution }';
/** The REST envelope's content: meta and rows (REST computes no total count, so neither does this). */
const PRICE_FIELDS = `${META} edges { node { datetime biddingZone priceEurMwh interpolated year } }`;
/** REST /flows gives meta.pagination.total, so this asks for totalCount. */
const FLOW_FIELDS = `totalCount ${META} edges { node { datetime biddingZoneFrom biddingZoneTo flowType flowInterpolated netFlowMw priceFromEurMwh priceToEurMwh capacityMw hours } }`;

/** One request through the three servers. */
interface Triple {
  readonly name: string;
  readonly rest: string;
  readonly graphql: string;
  readonly floor: FloorRoute;
  /**
   * Seconds per case as a multiple of `--seconds`, in two rounds instead of four: slices long enough
   * for responses of several hundred ms at 8 connections (autocannon drops the ones still running).
   */
  readonly long?: number;
}

/** The three requests of issue 17. */
export const TRIPLES: readonly Triple[] = [
  {
    name: '/prices default (all zones, 30 d, 1D)',
    rest: '/api/v1/prices',
    graphql: `{ prices(first: 10000) { ${PRICE_FIELDS} } }`,
    floor: { kind: 'prices' },
  },
  {
    name: '/prices DE_LU native 2 d',
    rest: '/api/v1/prices?zone=DE_LU&datetime_from=now-2d&resolution=native',
    graphql: `{ prices(zones: ["DE_LU"], from: "now-2d", resolution: NATIVE, first: 10000) { ${PRICE_FIELDS} } }`,
    floor: { kind: 'prices', zones: ['DE_LU'], datetimeFrom: 'now-2d', resolution: 'native' },
  },
  {
    name: '/flows 1H, 14 d, all borders (19,824 rows, limit 20,000)',
    rest: '/api/v1/flows?datetime_from=now-14d&resolution=1H&limit=20000',
    graphql: `{ flows(from: "now-14d", resolution: HOURLY, first: 20000) { ${FLOW_FIELDS} } }`,
    floor: { kind: 'flows', datetimeFrom: 'now-14d', resolution: '1H', limit: 20_000 },
    long: 3,
  },
];

/** The floor's and Yoga alone's REST routes: `/<index in TRIPLES>`. */
export const FLOOR_ROUTES: Readonly<Record<string, FloorRoute>> = Object.fromEntries(
  TRIPLES.map((t, i) => [`/${i}`, t.floor]),
);

/** The bases of the two references. */
interface References {
  readonly floor: string;
  readonly yoga: string;
}

/** The five servers' cases for `TRIPLES[i]`, in table order: floor, REST, GraphQL, Yoga alone REST and GraphQL. */
export function referenceCases(i: number, refs: References): BenchCase[] {
  const t = TRIPLES[i]!;
  return [
    { name: `floor ${t.name}`, path: `/${i}`, base: refs.floor },
    { name: `REST ${t.name}`, path: t.rest },
    graphqlCase(`GraphQL ${t.name}`, t.graphql),
    { name: `Yoga alone REST ${t.name}`, path: `/${i}`, base: refs.yoga },
    { ...graphqlCase(`Yoga alone GraphQL ${t.name}`, t.graphql), base: refs.yoga },
  ];
}

/** How to run the floor comparison. */
export interface FloorOptions {
  readonly pgUrl: string;
  readonly seconds: number;
  readonly connections: readonly number[];
  readonly serve: (db: Database) => Promise<{ base: string; close: () => Promise<void> }>;
}

const ratio = (x: BenchResult, floor: BenchResult) => (x.p50 / floor.p50).toFixed(2);

/** Rows of a response body: `data` of the REST envelope, or the edges of a GraphQL answer's one root field. */
function rowCount(body: { data?: unknown; errors?: unknown }): number {
  if (body.errors !== undefined) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors).slice(0, 300)}`);
  if (Array.isArray(body.data)) return body.data.length;
  const [root] = Object.values((body.data ?? {}) as Record<string, { edges?: unknown[] }>);
  if (!Array.isArray(root?.edges)) throw new Error('no rows in the answer');
  return root.edges.length;
}

/**
 * Sends each case once and throws unless every one answers 200 with the same number of rows (a
 * GraphQL answer with errors is a 200 too, and a fast one): the servers are compared on like work.
 */
export async function checkSameRows(base: string, cases: readonly BenchCase[]): Promise<number> {
  const counts = await Promise.all(
    cases.map(async (c) => {
      const res = await fetch((c.base ?? base) + c.path, {
        method: c.method ?? 'GET',
        body: c.body,
        headers: c.body ? { 'content-type': 'application/json' } : {},
      });
      if (res.status !== 200) throw new Error(`${c.name}: status ${res.status}`);
      try {
        return rowCount((await res.json()) as { data?: unknown; errors?: unknown });
      } catch (error) {
        throw new Error(`${c.name}: ${(error as Error).message}`);
      }
    }),
  );
  if (new Set(counts).size !== 1)
    throw new Error(`row counts differ: ${cases.map((c, i) => `${c.name} ${counts[i]}`).join(', ')}`);
  return counts[0]!;
}

/** Measures every request through floor, REST and GraphQL; a Markdown table per connection count. */
export async function runFloorComparison(db: Database, opts: FloorOptions): Promise<string> {
  const { base, close } = await opts.serve(db);
  const deps = { catalogue: await readCatalogue(db), now: Date.now };
  const floor = await startFloor(opts.pgUrl, db.schema, deps, FLOOR_ROUTES);
  const yoga = await startYogaReference(opts.pgUrl, db.schema, deps, FLOOR_ROUTES);
  const lines: string[] = [];
  try {
    for (const connections of opts.connections) {
      lines.push(
        `### PostgreSQL 15, ${connections} connection${connections > 1 ? 's' : ''}: floor, REST, GraphQL (p50 as multiples of the floor's; targets REST <= 1.3, GraphQL <= 1.5), and graphql-yoga alone`,
        '',
        '| request | floor p50 / p95 ms | REST p50 / p95 ms | GraphQL p50 / p95 ms | REST / floor | GraphQL / floor | Yoga alone REST / GraphQL p50 ms (/ floor) | REST / GraphQL over Yoga alone | req/s floor / REST / GraphQL | errors |',
        '|---|---|---|---|---|---|---|---|---|---|',
      );
      for (const [i, t] of TRIPLES.entries()) {
        const cases = referenceCases(i, { floor: floor.base, yoga: yoga.base });
        await checkSameRows(base, cases);
        const results = await measureInterleaved(
          base,
          cases,
          opts.seconds * (t.long ?? 1),
          connections,
          t.long ? 2 : 4,
        );
        const [f, r, g, yr, yg] = results as [BenchResult, BenchResult, BenchResult, BenchResult, BenchResult];
        const errors = results.reduce((n, x) => n + x.errors + x.non2xx, 0);
        const alone = `${yr.p50} / ${yg.p50} (${ratio(yr, f)}, ${ratio(yg, f)})`;
        lines.push(
          `| ${t.name} | ${f.p50} / ${f.p95} | ${r.p50} / ${r.p95} | ${g.p50} / ${g.p95} | ${ratio(r, f)} | ${ratio(g, f)} | ${alone} | ${ratio(r, yr)} / ${ratio(g, yg)} | ${f.rps} / ${r.rps} / ${g.rps} | ${errors} |`,
        );
        process.stderr.write(`${lines.at(-1)}\n`);
      }
      lines.push('');
    }
  } finally {
    await yoga.close();
    await floor.close();
    await close();
  }
  return lines.join('\n');
}
