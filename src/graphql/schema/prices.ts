import { z } from 'zod';
import { DATA_CATALOGUE } from '../../domain/catalogue.js';
import { roundPrice } from '../../domain/rounding.js';
import { InputError } from '../../errors.js';
import { PAGE_LIMITS } from '../../limits.js';
import type { PriceRecord } from '../../repositories/prices.js';
import type { Meta } from '../../services/meta.js';
import { countPriceRows, getPricePage, priceMeta, resolvePriceQuery, type ResolvedPriceQuery } from '../../services/prices.js';
import { builder, type GraphQLContext } from '../builder.js';
import { cursorCode, cursorInstant, decodeCursor, type Edge, encodeCursor, lazyEdges, MetaRef, rangeArgSchema, ResolutionEnum, withArgNames } from './common.js';
import { ZoneRef } from './zones.js';

/** Largest page a client may ask for with `first`. */
export const MAX_PAGE_SIZE = PAGE_LIMITS.prices;
const DEFAULT_PAGE_SIZE = PAGE_LIMITS.graphqlDefault;

const PricePointRef = builder.objectRef<PriceRecord>('PricePoint').implement({
  description: 'A day-ahead price of one zone: a native period (15-minute or hourly) or a UTC bucket.',
  fields: (t) => ({
    datetime: t.field({ type: 'DateTime', description: 'Start of the period or bucket, UTC.', resolve: (p) => p.datetime }),
    biddingZone: t.exposeString('zone', { description: 'Bidding zone short code.' }),
    zone: t.field({ type: ZoneRef, description: 'The bidding zone.', resolve: (p) => p.zone }),
    priceEurMwh: t.float({ description: 'Price in EUR/MWh (time-weighted mean for buckets), rounded to 0.0001.', resolve: (p) => roundPrice(p.price) }),
    interpolated: t.exposeBoolean('interpolated', { description: 'true when the value (or any value of the bucket) fills a gap upstream.' }),
    year: t.int({ description: 'Calendar year (UTC).', resolve: (p) => p.datetime.getUTCFullYear() }),
  }),
});

/** A price cursor: [datetime (RFC 3339 UTC), zone code]. */
const PRICE_CURSOR = z.tuple([cursorInstant, cursorCode]);

interface PriceConnectionShape {
  query: ResolvedPriceQuery;
  meta: Promise<Meta>;
  edges: Edge<PriceRecord>[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function resolvePrices(ctx: GraphQLContext, args: {
  zones?: string[] | null; from?: string | null; to?: string | null; resolution?: string | null;
  first?: number | null; after?: string | null; last?: number | null; before?: string | null;
}): Promise<PriceConnectionShape> {
  if (args.last != null || args.before != null) throw InputError.of('last', 'Only forward pagination (first/after) is supported', 'value_error');
  const query = resolvePriceQuery(ctx.deps, {
    zones: args.zones ?? undefined,
    datetimeFrom: args.from ?? undefined,
    datetimeTo: args.to ?? undefined,
    resolution: (args.resolution ?? 'auto') as 'auto',
  });
  const meta = priceMeta(ctx.deps, query);
  meta.catch(() => undefined);
  const limit = args.first ?? DEFAULT_PAGE_SIZE;
  const after = args.after ? decodeCursor(args.after, PRICE_CURSOR) : undefined;
  const rows = await getPricePage(ctx.deps, query, {
    after: after && { datetime: after[0], zone: after[1] },
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const edges = lazyEdges(page, (node) => encodeCursor([node.datetime.toISOString(), node.zone]));
  return {
    query,
    meta,
    edges,
    pageInfo: { hasNextPage: rows.length > limit, hasPreviousPage: Boolean(after), startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

builder.queryFields((t) => ({
  prices: t.connection(
    {
      type: PricePointRef,
      description: 'Day-ahead prices in EUR/MWh, ordered by datetime then zone; the same rows as REST /api/v1/prices. Forward keyset pagination (first/after).',
      args: {
        zones: t.arg.stringList({ description: 'Zone short codes or EICs; omitted means all zones.', validate: z.array(z.string().refine((v) => DATA_CATALOGUE.findZone(v) !== undefined, 'Unknown bidding zone')).max(100) }),
        from: t.arg.string({ description: 'Start (inclusive): ISO 8601 (UTC when no offset) or now-<n><unit>. Default now-30d.', validate: rangeArgSchema }),
        to: t.arg.string({ description: 'End (exclusive), same formats. Default now.', validate: rangeArgSchema }),
        resolution: t.arg({ type: ResolutionEnum, defaultValue: 'auto', description: 'Aggregation; explicit NATIVE allows at most 2 days, HOURLY at most 14 days.' }),
      },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? DEFAULT_PAGE_SIZE }),
      validate: z.object({ first: z.number().int().min(1).max(MAX_PAGE_SIZE).nullish() }).loose(),
      resolve: (_root, args, ctx) => withArgNames(() => resolvePrices(ctx, args)),
    },
    {
      name: 'PriceConnection',
      description: 'A page of prices with the total row count and the response meta.',
      fields: (c) => ({
        totalCount: c.int({ description: 'Rows in the whole range (all pages).', resolve: (conn, _a, ctx) => countPriceRows(ctx.deps, (conn as unknown as PriceConnectionShape).query) }),
        meta: c.field({ type: MetaRef, description: 'Provenance, sources, resolved range and resolution.', resolve: (conn) => (conn as unknown as PriceConnectionShape).meta }),
      }),
    },
  ),
}));
