import { z } from 'zod';
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
import type { InputOf } from '../../contract/params.js';
import { prices } from '../../operations/prices.js';
import { MetaRef } from './common.js';
import { assertForward, cursorCode, cursorInstant, keysetPage, type Page, type PageArgs } from '../connection.js';
import { type RowView, rowViewType } from '../rows/view-type.js';
import { rowZoneOf } from '../../services/time-zone.js';
import { inTimeZone } from '../rows/zoned.js';
import { connectionOf } from './operation-fields.js';

const PricePoint = rowViewType(prices.contract);

/** The `prices` connection as declared (operations/prices.ts). */
const PRICES = connectionOf(prices);

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

async function resolvePrices(
  ctx: GraphQLContext,
  page: PageArgs,
  input: InputOf<typeof prices.params>,
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
  [PRICES.field]: t.connection(
    {
      type: PricePoint.ref,
      description: PRICES.description,
      ...connectionArgs(t.arg, PRICES.params, PRICES.maxPage, resolvePrices),
    },
    {
      ...PRICES.connection,
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
