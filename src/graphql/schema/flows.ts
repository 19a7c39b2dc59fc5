import { z } from 'zod';
import { FLOW_ROW } from '../../contract/rows/flows.js';
import type { RequestedResolution } from '../../domain/resolution.js';
import type { FlowBasis, FlowRecord } from '../../domain/records.js';
import { FLOW_TYPES, type FlowTypeName, type ResolvedFlowSelection } from '../../services/flow-filter.js';
import { FLOWS_MAX_LIMIT, flowMeta, flowRowTimeZone, getFlowKeysetPage, resolveFlowQuery, summarizeFlowRows } from '../../services/flows.js';
import { builder, type GraphQLContext } from '../builder.js';
import { bordersArg, rangeArgs, resolutionArg, timeZoneArg, zonesArg } from './args.js';
import { inTimeZone } from '../rows/zoned.js';
import { MetaRef, withArgNames } from './common.js';
import { assertForward, cursorCode, cursorInstant, DEFAULT_PAGE_SIZE, keysetPage, type Page, type PageArgs } from '../connection.js';
import { type RowView, rowViewType } from '../rows/view-type.js';

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

const FlowRow = rowViewType(FLOW_ROW, { FlowType: FlowTypeEnum });

/** A flow cursor: [datetime (RFC 3339 UTC), exporter zone, importer zone, flow type]. */
const FLOW_CURSOR = {
  schema: z.tuple([cursorInstant, cursorCode, cursorCode, z.enum(FLOW_TYPES)]),
  partsOf: ({ row: r }: RowView<FlowRecord>) => [r.datetime.toISOString(), r.zoneFrom, r.zoneTo, r.flowType],
};

/** The edges' node field read as the edge's property (no resolver call per edge under graphql-jit). */
const EXPOSED_NODE = { extensions: { pothosExposedField: 'node' } };

interface FlowConnection extends Page<RowView<FlowRecord>> {
  readonly sel: ResolvedFlowSelection;
  /** Total rows and whether any is derived, asked for once when a client selects either. */
  readonly summary: () => Promise<{ total: number; derived: boolean }>;
}

interface FlowArgs extends PageArgs {
  readonly borders?: string[] | null;
  readonly zones?: string[] | null;
  readonly flowTypes?: FlowTypeName[] | null;
  readonly from?: string | null;
  readonly to?: string | null;
  readonly resolution?: RequestedResolution | null;
  readonly basis?: FlowBasis | null;
  readonly timeZone?: string | null;
}

async function resolveFlows(ctx: GraphQLContext, args: FlowArgs): Promise<FlowConnection> {
  assertForward(args);
  const { sel, query } = resolveFlowQuery(ctx.deps, {
    borders: args.borders ?? undefined,
    zones: args.zones ?? undefined,
    flowTypes: args.flowTypes ?? undefined,
    datetimeFrom: args.from ?? undefined,
    datetimeTo: args.to ?? undefined,
    resolution: args.resolution ?? 'auto',
    basis: args.basis ?? 'physical',
    tz: args.timeZone ?? undefined,
  });
  const zoneOf = flowRowTimeZone(sel);
  const page = await keysetPage(args, FLOW_CURSOR, ({ after, limit }) => {
    const position = after && { datetime: after[0], zoneFrom: after[1], zoneTo: after[2], flowType: after[3] };
    return getFlowKeysetPage(ctx.deps, query, { after: position, limit }).then((rows) => inTimeZone(rows, zoneOf).map(FlowRow.view));
  });
  let summary: Promise<{ total: number; derived: boolean }> | undefined;
  return { ...page, sel, summary: () => (summary ??= summarizeFlowRows(ctx.deps, query)) };
}

builder.queryFields((t) => ({
  flows: t.connection(
    {
      type: FlowRow.ref,
      description: 'Classified border-hours ordered by datetime, from, to, flow type (REST /api/v1/flows) with opaque keyset cursors: stable under inserts, no OFFSET scans.',
      args: {
        ...rangeArgs(t.arg),
        resolution: resolutionArg(t.arg, 'Aggregation, as REST /flows: NATIVE and HOURLY give one row per border-hour (flows are hourly); DAILY (UTC days) and WEEKLY (ISO weeks from Monday 00:00 UTC) one row per bucket, border direction and flow type with the hour count and means; AUTO picks by range width.'),
        borders: bordersArg(t.arg, 'Each selects its border whatever the direction of flow; rows keep the direction of their flow. Omitted: every border.'),
        zones: zonesArg(t.arg, 'Selects the borders with the zone on either side; combined with borders by AND. Omitted: every zone.'),
        flowTypes: t.arg({ type: [FlowTypeEnum], description: 'Flow types to keep.' }),
        timeZone: timeZoneArg(t.arg, 'Hourly, daily and weekly buckets are local; datetime carries the offset. With local, a border is in the zone of its zone A (codes sorted).'),
        basis: t.arg({ type: FlowBasisEnum, defaultValue: 'physical', description: 'Classify physical flows (default) or scheduled exchanges.' }),
      },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? DEFAULT_PAGE_SIZE }),
      validate: z.object({ first: z.number().int().min(1).max(MAX_FLOW_PAGE).nullish() }).loose(),
      resolve: (_root, args, ctx) => withArgNames(() => resolveFlows(ctx, args)),
    },
    {
      name: 'FlowConnection',
      description: 'A page of flow rows with the total row count and the response meta.',
      fields: (c) => ({
        totalCount: c.int({ description: 'Rows in the whole selection (all pages).', resolve: async (conn) => (await conn.summary()).total }),
        meta: c.field({
          type: MetaRef,
          description: 'Provenance, sources, resolved range and resolution.',
          resolve: async (conn, _a, ctx) => {
            const { derived } = await conn.summary();
            return { ...(await flowMeta(ctx.deps, conn.sel, derived)), pagination: null };
          },
        }),
      }),
    },
    { nodeField: EXPOSED_NODE },
  ),
}));

export { FLOW_TYPES };
