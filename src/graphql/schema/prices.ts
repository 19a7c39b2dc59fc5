import { z } from 'zod';
import { PRICE_ROW } from '../../contract/rows/prices.js';
import type { RequestedResolution } from '../../domain/resolution.js';
import { PAGE_LIMITS } from '../../limits.js';
import type { PriceRecord } from '../../domain/records.js';
import type { Meta } from '../../services/meta.js';
import { countPriceRows, getPriceKeysetPage, priceMeta, resolvePriceQuery, type ResolvedPriceQuery } from '../../services/prices.js';
import { builder, type GraphQLContext } from '../builder.js';
import { timeZoneArg, zonesArg } from './args.js';
import { MetaRef, rangeArgSchema, ResolutionEnum, withArgNames } from './common.js';
import { assertForward, cursorCode, cursorInstant, DEFAULT_PAGE_SIZE, keysetPage, type Page, type PageArgs } from '../connection.js';
import { type RowView, rowViewType } from '../rows/view-type.js';
import { rowZoneOf } from '../../services/time-zone.js';
import { inTimeZone } from '../rows/zoned.js';

/** Largest page a client may ask for with `first`. */
export const MAX_PAGE_SIZE = PAGE_LIMITS.prices;

const PricePoint = rowViewType(PRICE_ROW);

/** A price cursor: [datetime (RFC 3339 UTC), zone code]. */
const PRICE_CURSOR = {
  schema: z.tuple([cursorInstant, cursorCode]),
  partsOf: ({ row: p }: RowView<PriceRecord>) => [p.datetime.toISOString(), p.zone],
};

interface PriceConnection extends Page<RowView<PriceRecord>> {
  readonly query: ResolvedPriceQuery;
  readonly meta: Promise<Meta>;
}

interface PriceArgs extends PageArgs {
  readonly zones?: string[] | null;
  readonly from?: string | null;
  readonly to?: string | null;
  readonly resolution?: RequestedResolution | null;
  readonly timeZone?: string | null;
}

async function resolvePrices(ctx: GraphQLContext, args: PriceArgs): Promise<PriceConnection> {
  assertForward(args);
  const query = resolvePriceQuery(ctx.deps, {
    zones: args.zones ?? undefined,
    datetimeFrom: args.from ?? undefined,
    datetimeTo: args.to ?? undefined,
    resolution: args.resolution ?? 'auto',
    tz: args.timeZone ?? undefined,
  });
  const zoneOf = rowZoneOf(query.timeZone);
  const meta = priceMeta(ctx.deps, query);
  meta.catch(() => undefined);
  const page = await keysetPage(args, PRICE_CURSOR, ({ after, limit }) => getPriceKeysetPage(ctx.deps, query, { after: after && { datetime: after[0], zone: after[1] }, limit })
    .then((rows) => inTimeZone(rows, zoneOf && ((r) => zoneOf(r.zone))).map(PricePoint.view)));
  return { ...page, query, meta };
}

builder.queryFields((t) => ({
  prices: t.connection(
    {
      type: PricePoint.ref,
      description: 'Day-ahead prices in EUR/MWh, ordered by datetime then zone; the same rows as REST /api/v1/prices. Forward keyset pagination (first/after).',
      args: {
        zones: zonesArg(t.arg, 'Omitted means all zones.'),
        from: t.arg.string({ description: 'Start (inclusive): ISO 8601 (UTC when no offset) or now-<n><unit>. Default now-30d.', validate: rangeArgSchema }),
        to: t.arg.string({ description: 'End (exclusive), same formats. Default now.', validate: rangeArgSchema }),
        resolution: t.arg({ type: ResolutionEnum, defaultValue: 'auto', description: 'Aggregation; explicit NATIVE allows at most 2 days, HOURLY at most 14 days.' }),
        timeZone: timeZoneArg(t.arg, 'Hourly, daily and weekly means are of local hours, days and weeks; datetime carries the offset (2026-03-29T00:00:00+01:00).'),
      },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? DEFAULT_PAGE_SIZE }),
      validate: z.object({ first: z.number().int().min(1).max(MAX_PAGE_SIZE).nullish() }).loose(),
      resolve: (_root, args, ctx) => withArgNames(() => resolvePrices(ctx, args)),
    },
    {
      name: 'PriceConnection',
      description: 'A page of prices with the total row count and the response meta.',
      fields: (c) => ({
        totalCount: c.int({ description: 'Rows in the whole range (all pages).', resolve: (conn, _a, ctx) => countPriceRows(ctx.deps, conn.query) }),
        meta: c.field({ type: MetaRef, description: 'Provenance, sources, resolved range and resolution.', resolve: (conn) => conn.meta }),
      }),
    },
  ),
}));
