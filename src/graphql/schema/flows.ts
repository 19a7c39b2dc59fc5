import { z } from 'zod';
import { resolveBorders, resolveZones } from '../../domain/catalogue.js';
import { InputError } from '../../errors.js';
import type { FlowRecord } from '../../repositories/flows.js';
import { FLOW_TYPES, type FlowTypeName } from '../../services/flow-filter.js';
import { flowMeta, getFlowPage, resolveFlowQuery, summarizeFlowRows } from '../../services/flows.js';
import type { FlowQuery } from '../../repositories/flows.js';
import { builder, type GraphQLContext } from '../builder.js';
import { decodeCursor, encodeCursor, MetaRef, rangeArgSchema, ResolutionEnum, withArgNames } from './common.js';
import { ZoneRef } from './zones.js';

/** Largest flows page a client may ask for with `first`. */
export const MAX_FLOW_PAGE = 20_000;

export const FlowTypeEnum = builder.enumType('FlowType', {
  description: 'Classification of a border-hour against the price gradient (DESIGN.md).',
  values: {
    CONVERGENCE: { value: 'convergence', description: 'Power moves toward the higher price below the capacity limit, or prices are equal within eps.' },
    CONGESTION: { value: 'congestion', description: 'Power moves toward the higher price at >= 97 % of the NTC of that direction.' },
    COUNTER_INTUITIVE: { value: 'counter_intuitive', description: 'Power leaves the higher-price zone for the lower-price one (spread < -eps).' },
    OUTAGE: { value: 'outage', description: 'The border was unavailable (outage record, or zero NTC both ways).' },
  } as const,
});

export const FlowBasisEnum = builder.enumType('FlowBasis', {
  description: 'PHYSICAL: measured physical flows (ENTSO-E A11; scheduled exchanges where missing, marked derived). SCHEDULED: day-ahead scheduled commercial exchanges (A09), the basis of the literature on counter-intuitive flows.',
  values: { PHYSICAL: { value: 'physical' }, SCHEDULED: { value: 'scheduled' } } as const,
});

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
    netFlowMw: t.float({ description: 'Net flow from -> to, MW (>= 0; bucket mean).', resolve: (r) => Math.round(r.netFlowMw * 1000) / 1000 }),
    priceFromEurMwh: t.float({ nullable: true, description: 'Exporter price, EUR/MWh.', resolve: (r) => r.priceFrom }),
    priceToEurMwh: t.float({ nullable: true, description: 'Importer price, EUR/MWh.', resolve: (r) => r.priceTo }),
    priceDeltaEurMwh: t.float({ nullable: true, description: 'priceTo - priceFrom, EUR/MWh.', resolve: (r) => (r.priceFrom === null || r.priceTo === null ? null : r.priceTo - r.priceFrom) }),
    capacityMw: t.float({ nullable: true, description: 'NTC in the row direction, MW.', resolve: (r) => r.capacityMw }),
    hours: t.exposeInt('hours', { description: 'Hours in the row (1 at hourly resolution).' }),
  }),
});

interface FlowConnectionShape {
  query: FlowQuery;
  summary: () => Promise<{ total: number; derived: boolean }>;
  ctx: ReturnType<typeof resolveFlowQuery>['sel'];
  edges: { cursor: string; node: FlowRecord }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

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
  const limit = (args.first as number | null) ?? 1_000;
  const a = args.after ? decodeCursor(args.after as string, 4).map(String) : undefined;
  const after = a && { datetime: new Date(a[0]!), zoneFrom: a[1]!, zoneTo: a[2]!, flowType: a[3]! };
  const rows = await getFlowPage(ctx.deps, query, { after, limit: limit + 1 });
  const edges = rows.slice(0, limit).map((node) => ({ cursor: cursorOf(node), node }));
  let summary: Promise<{ total: number; derived: boolean }> | undefined;
  return {
    query, ctx: sel, edges,
    summary: () => (summary ??= summarizeFlowRows(ctx.deps, query)),
    pageInfo: { hasNextPage: rows.length > limit, hasPreviousPage: Boolean(after), startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

const codeList = (param: string, check: (v: string[]) => unknown) =>
  z.array(z.string()).max(200).superRefine((v, c) => {
    try {
      check(v);
    } catch (err) {
      c.addIssue({ code: 'custom', message: err instanceof InputError ? err.issues[0]!.msg : `Invalid ${param}` });
    }
  });

type ArgBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg'];

/** Arguments shared by the flow fields (REST parameter semantics). */
export const flowArgs = (t: ArgBuilder) => ({
  borders: t.stringList({ description: 'Borders written FROM->TO (either flow direction is selected; the written orientation signs signed flows).', validate: codeList('borders', (v) => resolveBorders(v)) }),
  zones: t.stringList({ description: 'Zones (code or EIC) on either side of the border.', validate: codeList('zones', (v) => resolveZones(v)) }),
  from: t.string({ description: 'Start (inclusive): ISO 8601 (UTC when no offset) or now-<n><unit>. Default now-30d.', validate: rangeArgSchema }),
  to: t.string({ description: 'End (exclusive), same formats. Default now.', validate: rangeArgSchema }),
  resolution: t({ type: ResolutionEnum, defaultValue: 'auto', description: 'Aggregation; flows are hourly, so NATIVE equals HOURLY.' }),
});

builder.queryFields((t) => ({
  flows: t.connection(
    {
      type: FlowRowRef,
      description: 'Classified border-hours ordered by datetime, from, to, flow type (REST /api/v1/flows) with opaque keyset cursors: stable under inserts, no OFFSET scans.',
      args: {
        ...flowArgs(t.arg),
        flowTypes: t.arg({ type: [FlowTypeEnum], description: 'Flow types to keep.' }),
        basis: t.arg({ type: FlowBasisEnum, defaultValue: 'physical', description: 'Classify physical flows (default) or scheduled exchanges.' }),
      },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? 1_000 }),
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
