/**
 * The stack's own floor in the latency bench: the floor's statements and rows
 * (bench/floor-server.ts) served through graphql-yoga with graphql-jit and nothing of the app. REST
 * is one `onRequest` route writing the floor's JSON body in a Response of Yoga's fetch API; GraphQL
 * is a graphql-js schema of the fields the bench asks for, resolved from the same rows (no plugins:
 * no identification, rate limit, cost or depth limits, time limit, caching headers, metrics or
 * logging). Its p50 against the floor's is what the fixed stack costs; the app's against it, what
 * the app's own code adds.
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import type { RequestedResolution } from '../src/domain/resolution.js';
import { formatUtc } from '../src/domain/time.js';
import type { ServiceDeps } from '../src/services/context.js';
import { type FloorAnswer, type FloorRoute, openFloorSource } from './floor-server.js';
import { type Loopback, listenOnLoopback } from './loopback.js';

const TYPE_DEFS = /* GraphQL */ `
  enum Resolution { AUTO NATIVE HOURLY DAILY WEEKLY }
  enum FlowType { CONVERGENCE CONGESTION COUNTER_INTUITIVE OUTAGE }
  type Meta { provenance: String! upstreamSources: [String!]! resolvedFrom: String! resolvedTo: String! resolution: Resolution! }
  type Price { datetime: String! biddingZone: String! priceEurMwh: Float! interpolated: Boolean! year: Int! }
  type PriceEdge { node: Price! }
  type PriceConnection { meta: Meta! edges: [PriceEdge!]! }
  type Flow {
    datetime: String! biddingZoneFrom: String! biddingZoneTo: String! flowType: FlowType! flowInterpolated: Boolean!
    netFlowMw: Float! priceFromEurMwh: Float priceToEurMwh: Float capacityMw: Float hours: Int!
  }
  type FlowEdge { node: Flow! }
  type FlowConnection { totalCount: Int! meta: Meta! edges: [FlowEdge!]! }
  type Query {
    prices(zones: [String!], from: String, resolution: Resolution, first: Int): PriceConnection!
    flows(from: String!, resolution: Resolution, first: Int!): FlowConnection!
  }
`;

interface PriceRow {
  readonly datetime_ms: number;
  readonly zone: string;
  readonly price: number;
  readonly interpolated: boolean;
}

interface FlowRow {
  readonly datetime_ms: number;
  readonly zone_from: string;
  readonly zone_to: string;
  readonly flow_type: string;
  readonly flow_interpolated: boolean;
  readonly net_flow_mw: number;
  readonly price_from: number | null;
  readonly price_to: number | null;
  readonly capacity_mw: number | null;
  readonly hours: number;
}

const meta = (a: FloorAnswer) => ({
  provenance: 'measured',
  upstreamSources: a.body.meta.upstream_sources,
  resolvedFrom: formatUtc(a.range.from),
  resolvedTo: formatUtc(a.range.to),
  resolution: a.resolution,
});

const priceNode = (r: PriceRow) => {
  const at = new Date(r.datetime_ms);
  return {
    datetime: formatUtc(at),
    biddingZone: r.zone,
    priceEurMwh: r.price,
    interpolated: r.interpolated,
    year: at.getUTCFullYear(),
  };
};

const flowNode = (r: FlowRow) => ({
  datetime: formatUtc(new Date(r.datetime_ms)),
  biddingZoneFrom: r.zone_from,
  biddingZoneTo: r.zone_to,
  flowType: r.flow_type,
  flowInterpolated: r.flow_interpolated,
  netFlowMw: r.net_flow_mw,
  priceFromEurMwh: r.price_from,
  priceToEurMwh: r.price_to,
  capacityMw: r.capacity_mw,
  hours: r.hours,
});

/**
 * Starts the reference on loopback over `url` (schema `schema`): GraphQL at `/graphql`, and the
 * floor's `routes` (path -> route) as REST; `deps` as the floor's.
 */
export async function startYogaReference(
  url: string,
  schema: string,
  deps: Omit<ServiceDeps, 'db'>,
  routes: Record<string, FloorRoute>,
): Promise<Loopback> {
  const source = openFloorSource(url, schema, deps);
  const resolvers = {
    Resolution: { AUTO: 'auto', NATIVE: 'native', HOURLY: '1H', DAILY: '1D', WEEKLY: '1W' },
    FlowType: {
      CONVERGENCE: 'convergence',
      CONGESTION: 'congestion',
      COUNTER_INTUITIVE: 'counter_intuitive',
      OUTAGE: 'outage',
    },
    Query: {
      prices: async (_: unknown, args: { zones?: string[]; from?: string; resolution?: RequestedResolution }) => {
        const a = await source.answer({
          kind: 'prices',
          zones: args.zones,
          datetimeFrom: args.from,
          resolution: args.resolution,
        });
        return { meta: meta(a), edges: (a.body.data as PriceRow[]).map((r) => ({ node: priceNode(r) })) };
      },
      flows: async (_: unknown, args: { from: string; resolution?: RequestedResolution; first: number }) => {
        const a = await source.answer({
          kind: 'flows',
          datetimeFrom: args.from,
          resolution: args.resolution ?? 'auto',
          limit: args.first,
        });
        return {
          totalCount: a.body.meta.total,
          meta: meta(a),
          edges: (a.body.data as FlowRow[]).map((r) => ({ node: flowNode(r) })),
        };
      },
    },
  };
  const rest: Plugin = {
    onRequest({ url: requested, endResponse, fetchAPI }) {
      const route = routes[requested.pathname];
      if (!route) return;
      return source
        .answer(route)
        .then((a) =>
          endResponse(
            new fetchAPI.Response(JSON.stringify(a.body), { headers: { 'content-type': 'application/json' } }),
          ),
        );
    },
  };
  const yoga = createYoga({
    schema: createSchema({ typeDefs: TYPE_DEFS, resolvers }),
    plugins: [rest, useGraphQlJit()],
    logging: false,
    landingPage: false,
    graphiql: false,
  });
  return listenOnLoopback(yoga, () => source.close());
}
