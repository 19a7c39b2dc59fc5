import { z } from 'zod';
import { orNull, roundedPriceDelta, roundMw, roundPrice } from '../../domain/rounding.js';
import { InputError } from '../../errors.js';
import { PAGE_LIMITS } from '../../limits.js';
import type { FlowRecord } from '../../repositories/flows.js';
import { FLOW_TYPES, type FlowTypeName } from '../../services/flow-filter.js';
import { FLOWS_MAX_LIMIT, flowMeta, getFlowPage, resolveFlowQuery, summarizeFlowRows } from '../../services/flows.js';
import type { FlowQuery } from '../../repositories/flows.js';
import { builder, type GraphQLContext } from '../builder.js';
import { bordersArg, rangeArgs, resolutionArg, zonesArg } from './args.js';
import { cursorCode, cursorInstant, decodeCursor, type Edge, encodeCursor, lazyEdges, MetaRef, withArgNames } from './common.js';
import { ZoneRef } from './zones.js';

/** Largest flows page a client may ask for with `first`: the REST maximum. */
export const MAX_FLOW_PAGE = FLOWS_MAX_LIMIT;

/** The four flow types (REST flow_type). */
export const FlowTypeEnum = builder.enumType('FlowType', {
  description: 'Classification of a border-hour against the price gradient (DESIGN.md).',
  values: {
    CONVERGENCE: { value: 'convergence', description: 'Power moves toward the higher price below the capacity limit, or prices are equal within eps (default 0.01 EUR/MWh).' },
    CONGESTION: { value: 'congestion', description: 'Power moves toward the higher price at >= 97 % of the NTC of that direction.' },
    COUNTER_INTUITIVE: { value: 'counter_intuitive', description: 'Power leaves the higher-price zone for the lower-price one (spread < -eps, EUR/MWh).' },
    OUTAGE: { value: 'outage', description: 'The border was unavailable (outage record, or zero NTC both ways).' },
  } as const,
});

/** Which flow is classified: physical (default) or scheduled. */
export const FlowBasisEnum = builder.enumType('FlowBasis', {
  description: 'PHYSICAL: measured physical flows (ENTSO-E A11; scheduled exchanges where missing, marked derived). SCHEDULED: day-ahead scheduled commercial exchanges (A09), the basis of the literature on counter-intuitive flows.',
  values: {
    PHYSICAL: { value: 'physical', description: 'Measured physical flows (A11); hours without one use the scheduled exchange and are marked derived.' },
    SCHEDULED: { value: 'scheduled', description: 'Day-ahead scheduled commercial exchanges (A09), classified by the same rules; rows are never derived.' },
  } as const,
});

const priceOrNull = orNull(roundPrice);
const mwOrNull = orNull(roundMw);

const FlowRowRef = builder.objectRef<FlowRecord>('FlowRow').implement({
  description: 'One border-hour (or, at DAILY/WEEKLY, one bucket of a border direction and flow type).',
  fields: (t) => ({
    datetime: t.field({ type: 'DateTime', description: 'Hour (or bucket) start, UTC.', resolve: (r) => r.datetime }),
    from: t.field({ type: ZoneRef, description: 'Exporting zone.', resolve: (r) => r.zoneFrom }),
    to: t.field({ type: ZoneRef, description: 'Importing zone.', resolve: (r) => r.zoneTo }),
    biddingZoneFrom: t.exposeString('zoneFrom', { description: 'Exporting zone code.' }),
    biddingZoneTo: t.exposeString('zoneTo', { description: 'Importing zone code.' }),
    flowType: t.field({ type: FlowTypeEnum, description: 'Classification of the hour (the bucket).', resolve: (r) => r.flowType as FlowTypeName }),
    flowInterpolated: t.exposeBoolean('flowInterpolated', { description: 'true when the flow (any hour of a bucket) fills an upstream gap.' }),
    derived: t.exposeBoolean('derived', { description: 'true when the flow was derived from scheduled exchanges (physical flow missing).' }),
    netFlowMw: t.float({ description: 'Net flow from -> to, MW (>= 0; bucket mean at DAILY/WEEKLY), rounded to 0.001 (REST net_flow_mw).', resolve: (r) => roundMw(r.netFlowMw) }),
    priceFromEurMwh: t.float({ nullable: true, description: 'Exporter price, EUR/MWh: hourly time-weighted mean of the native prices (bucket mean), rounded to 0.0001; null when not published (REST price_from).', resolve: (r) => priceOrNull(r.priceFrom) }),
    priceToEurMwh: t.float({ nullable: true, description: 'Importer price, EUR/MWh, as priceFromEurMwh (REST price_to).', resolve: (r) => priceOrNull(r.priceTo) }),
    priceDeltaEurMwh: t.float({ nullable: true, description: 'priceTo - priceFrom, EUR/MWh, rounded to 0.0001; null when either price is missing (REST price_delta).', resolve: (r) => roundedPriceDelta(r.priceFrom, r.priceTo) }),
    capacityMw: t.float({ nullable: true, description: 'NTC in the row direction, MW (bucket mean), rounded to 0.001; null when not published (REST capacity_mw).', resolve: (r) => mwOrNull(r.capacityMw) }),
    hours: t.exposeInt('hours', { description: 'Hours in the row: 1 at NATIVE/HOURLY, the hour count of the bucket at DAILY/WEEKLY.' }),
  }),
});

interface FlowConnectionShape {
  query: FlowQuery;
  summary: () => Promise<{ total: number; derived: boolean }>;
  ctx: ReturnType<typeof resolveFlowQuery>['sel'];
  edges: Edge<FlowRecord>[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** A flow cursor: [datetime (RFC 3339 UTC), exporter zone, importer zone, flow type]. */
const FLOW_CURSOR = z.tuple([cursorInstant, cursorCode, cursorCode, z.enum(FLOW_TYPES)]);

const cursorOf = (r: FlowRecord) => encodeCursor([r.datetime.toISOString(), r.zoneFrom, r.zoneTo, r.flowType]);

async function resolveFlows(ctx: GraphQLContext, args: Record<string, unknown>): Promise<FlowConnectionShape> {
  if (args.last != null || args.before != null) throw InputError.of('last', 'Only forward pagination (first/after) is supported');
  const { sel, query } = resolveFlowQuery(ctx.deps, {
    borders: (args.borders as string[] | null) ?? undefined,
    zones: (args.zones as string[] | null) ?? undefined,
    flowTypes: (args.flowTypes as FlowTypeName[] | null) ?? undefined,
    datetimeFrom: (args.from as string | null) ?? undefined,
    datetimeTo: (args.to as string | null) ?? undefined,
    resolution: (args.resolution as 'auto') ?? 'auto',
    basis: (args.basis as 'physical') ?? 'physical',
  });
  const limit = (args.first as number | null) ?? PAGE_LIMITS.graphqlDefault;
  const a = args.after ? decodeCursor(args.after as string, FLOW_CURSOR) : undefined;
  const after = a && { datetime: a[0], zoneFrom: a[1], zoneTo: a[2], flowType: a[3] };
  const rows = await getFlowPage(ctx.deps, query, { after, limit: limit + 1 });
  const edges = lazyEdges(rows.slice(0, limit), cursorOf);
  let summary: Promise<{ total: number; derived: boolean }> | undefined;
  return {
    query, ctx: sel, edges,
    summary: () => (summary ??= summarizeFlowRows(ctx.deps, query)),
    pageInfo: { hasNextPage: rows.length > limit, hasPreviousPage: Boolean(after), startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

builder.queryFields((t) => ({
  flows: t.connection(
    {
      type: FlowRowRef,
      description: 'Classified border-hours ordered by datetime, from, to, flow type (REST /api/v1/flows) with opaque keyset cursors: stable under inserts, no OFFSET scans.',
      args: {
        ...rangeArgs(t.arg),
        resolution: resolutionArg(t.arg, 'Aggregation, as REST /flows: NATIVE and HOURLY give one row per border-hour (flows are hourly); DAILY (UTC days) and WEEKLY (ISO weeks from Monday 00:00 UTC) one row per bucket, border direction and flow type with the hour count and means; AUTO picks by range width.'),
        borders: bordersArg(t.arg, 'Each selects its border whatever the direction of flow; rows keep the direction of their flow. Omitted: every border.'),
        zones: zonesArg(t.arg, 'Selects the borders with the zone on either side; combined with borders by AND. Omitted: every zone.'),
        flowTypes: t.arg({ type: [FlowTypeEnum], description: 'Flow types to keep.' }),
        basis: t.arg({ type: FlowBasisEnum, defaultValue: 'physical', description: 'Classify physical flows (default) or scheduled exchanges.' }),
      },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? PAGE_LIMITS.graphqlDefault }),
      validate: z.object({ first: z.number().int().min(1).max(MAX_FLOW_PAGE).nullish() }).loose(),
      resolve: (_root, args, ctx) => withArgNames(() => resolveFlows(ctx, args as Record<string, unknown>)),
    },
    {
      name: 'FlowConnection',
      description: 'A page of flow rows with the total row count and the response meta.',
      fields: (c) => ({
        totalCount: c.int({ description: 'Rows in the whole selection (all pages).', resolve: async (conn) => (await (conn as unknown as FlowConnectionShape).summary()).total }),
        meta: c.field({
          type: MetaRef,
          description: 'Provenance, sources, resolved range and resolution.',
          resolve: async (conn, _a, ctx) => {
            const shape = conn as unknown as FlowConnectionShape;
            const { derived } = await shape.summary();
            return { ...(await flowMeta(ctx.deps, shape.ctx, derived)), pagination: null };
          },
        }),
      }),
    },
  ),
}));

export { FLOW_TYPES };
