import { z } from 'zod';
import { PRICE_ROW } from '../../contract/rows/prices.js';
import { PAGE_LIMITS } from '../../limits.js';
import type { PriceRecord } from '../../domain/records.js';
import type { Meta } from '../../services/meta.js';
import {
  countPriceRows,
  getPriceKeysetPage,
  priceMeta,
  resolvePriceQuery,
  type ResolvedPriceQuery,
} from '../../services/prices.js';
import { builder, type GraphQLContext } from '../builder.js';
import { connectionArgs } from './args.js';
import { type InputOf, LINEAGE, RANGE, RESOLUTION, TIME_ZONE, use, ZONES } from '../../contract/params.js';
import { MetaRef } from './common.js';
import { assertForward, cursorCode, cursorInstant, keysetPage, type Page, type PageArgs } from '../connection.js';
import { type RowView, rowViewType } from '../rows/view-type.js';
import { rowZoneOf } from '../../services/time-zone.js';
import { inTimeZone } from '../rows/zoned.js';

const PricePoint = rowViewType(PRICE_ROW);

/** A price cursor: [datetime (RFC 3339 UTC), zone code], with lineage also the series' code. */
const PRICE_CURSOR = {
  schema: z.union([z.tuple([cursorInstant, cursorCode]), z.tuple([cursorInstant, cursorCode, cursorCode])]),
  partsOf: ({ row: p }: RowView<PriceRecord>) =>
    p.series === undefined ? [p.datetime.toISOString(), p.zone] : [p.datetime.toISOString(), p.zone, p.series],
};

interface PriceConnection extends Page<RowView<PriceRecord>> {
  readonly query: ResolvedPriceQuery;
  readonly meta: Promise<Meta>;
}

/** The arguments of `prices` besides the page. */
const PRICES_PARAMS = [
  use(ZONES, { graphql: 'Omitted means all zones.' }),
  ...RANGE,
  use(RESOLUTION, {
    graphql:
      'Aggregation: time-weighted means of the native prices per UTC hour, day or ISO week (local ones with timeZone); AUTO picks by range width.',
  }),
  use(TIME_ZONE, {
    graphql:
      'Hourly, daily and weekly means are of local hours, days and weeks; datetime carries the offset (2026-03-29T00:00:00+01:00).',
  }),
  use(LINEAGE, { graphql: 'Rows keep their actual zone in biddingZone and the requested one in series.' }),
] as const;

async function resolvePrices(
  ctx: GraphQLContext,
  page: PageArgs,
  input: InputOf<typeof PRICES_PARAMS>,
): Promise<PriceConnection> {
  assertForward(page);
  const query = resolvePriceQuery(ctx.deps, { ...input, anyRange: true });
  const zoneOf = rowZoneOf(query.timeZone);
  const meta = priceMeta(ctx.deps, query);
  meta.catch(() => undefined);
  const found = await keysetPage(page, PRICE_CURSOR, ({ after, limit }) =>
    getPriceKeysetPage(ctx.deps, query, {
      after: after && { datetime: after[0], zone: after[1], ...(after[2] === undefined ? {} : { series: after[2] }) },
      limit,
    }).then((rows) => inTimeZone(rows, zoneOf && ((r) => zoneOf(r.zone))).map(PricePoint.view)),
  );
  return { ...found, query, meta };
}

builder.queryFields((t) => ({
  prices: t.connection(
    {
      type: PricePoint.ref,
      description:
        'Day-ahead prices in EUR/MWh, ordered by datetime then zone; the same rows as REST /api/v1/prices. Forward keyset pagination (first/after).',
      ...connectionArgs(t.arg, PRICES_PARAMS, PAGE_LIMITS.prices, resolvePrices),
    },
    {
      name: 'PriceConnection',
      description: 'A page of prices with the total row count and the response meta.',
      fields: (c) => ({
        totalCount: c.int({
          description: 'Rows in the whole range (all pages).',
          resolve: (conn, _a, ctx) => countPriceRows(ctx.deps, conn.query),
        }),
        meta: c.field({
          type: MetaRef,
          description: 'Provenance, sources, resolved range and resolution.',
          resolve: (conn) => conn.meta,
        }),
      }),
    },
  ),
}));
