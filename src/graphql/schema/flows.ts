import { z } from 'zod';
import { FLOW_ROW } from '../../contract/rows/flows.js';
import type { FlowRecord } from '../../domain/records.js';
import type { ResolvedFlowSelection } from '../../services/flow-filter.js';
import {
  flowMeta,
  flowRowTimeZone,
  getFlowKeysetPage,
  resolveFlowQuery,
  summarizeFlowRows,
} from '../../services/flows.js';
import { builder, type GraphQLContext } from '../builder.js';
import { connectionArgs, enumType } from './args.js';
import { enumValues, FLOW_BASIS, FLOW_TYPE } from '../../contract/enums.js';
import {
  BASIS,
  BORDERS,
  FLOW_TYPES_PARAM,
  type InputOf,
  RANGE,
  RESOLUTION,
  TIME_ZONE,
  use,
  ZONES,
} from '../../contract/params.js';
import { PAGE_LIMITS } from '../../limits.js';
import { inTimeZone } from '../rows/zoned.js';
import { MetaRef } from './common.js';
import { assertForward, cursorCode, cursorInstant, keysetPage, type Page, type PageArgs } from '../connection.js';
import { type RowView, rowViewType } from '../rows/view-type.js';

/** The four flow types (REST flow_type). */
export const FlowTypeEnum = enumType(FLOW_TYPE);

/** Which flow is classified: physical (default) or scheduled. */
export const FlowBasisEnum = enumType(FLOW_BASIS);

/** The arguments of `flows` besides the page. */
const FLOWS_PARAMS = [
  ...RANGE,
  use(RESOLUTION, {
    graphql:
      'Aggregation, as REST /flows: NATIVE and HOURLY give one row per border-hour (flows are hourly); DAILY (UTC days) and WEEKLY (ISO weeks from Monday 00:00 UTC) one row per bucket, border direction and flow type with the hour count and means; AUTO picks by range width.',
  }),
  use(BORDERS, {
    graphql:
      'Each selects its border whatever the direction of flow; rows keep the direction of their flow. Omitted: every border.',
  }),
  use(ZONES, {
    graphql: 'Selects the borders with the zone on either side; combined with borders by AND. Omitted: every zone.',
  }),
  FLOW_TYPES_PARAM,
  use(TIME_ZONE, {
    graphql:
      'Hourly, daily and weekly buckets are local; datetime carries the offset. With local, a border is in the zone of its zone A (codes sorted).',
  }),
  BASIS,
] as const;

const FlowRow = rowViewType(FLOW_ROW, { FlowType: FlowTypeEnum });

/** A flow cursor: [datetime (RFC 3339 UTC), exporter zone, importer zone, flow type]. */
const FLOW_CURSOR = {
  schema: z.tuple([cursorInstant, cursorCode, cursorCode, z.enum(enumValues(FLOW_TYPE))]),
  partsOf: ({ row: r }: RowView<FlowRecord>) => [r.datetime.toISOString(), r.zoneFrom, r.zoneTo, r.flowType],
};

/** The edges' node field read as the edge's property (no resolver call per edge under graphql-jit). */
const EXPOSED_NODE = { extensions: { pothosExposedField: 'node' } };

interface FlowConnection extends Page<RowView<FlowRecord>> {
  readonly sel: ResolvedFlowSelection;
  /** Total rows and whether any is derived, asked for once when a client selects either. */
  readonly summary: () => Promise<{ total: number; derived: boolean }>;
}

async function resolveFlows(
  ctx: GraphQLContext,
  page: PageArgs,
  args: InputOf<typeof FLOWS_PARAMS>,
): Promise<FlowConnection> {
  assertForward(page);
  const { sel, query } = resolveFlowQuery(ctx.deps, { ...args, anyRange: true });
  const zoneOf = flowRowTimeZone(sel);
  const found = await keysetPage(page, FLOW_CURSOR, ({ after, limit }) => {
    const position = after && { datetime: after[0], zoneFrom: after[1], zoneTo: after[2], flowType: after[3] };
    return getFlowKeysetPage(ctx.deps, query, { after: position, limit }).then((rows) =>
      inTimeZone(rows, zoneOf).map(FlowRow.view),
    );
  });
  let summary: Promise<{ total: number; derived: boolean }> | undefined;
  return { ...found, sel, summary: () => (summary ??= summarizeFlowRows(ctx.deps, query)) };
}

builder.queryFields((t) => ({
  flows: t.connection(
    {
      type: FlowRow.ref,
      description:
        'Classified border-hours ordered by datetime, from, to, flow type (REST /api/v1/flows) with opaque keyset cursors: stable under inserts, no OFFSET scans.',
      ...connectionArgs(t.arg, FLOWS_PARAMS, PAGE_LIMITS.flows, resolveFlows),
    },
    {
      name: 'FlowConnection',
      description: 'A page of flow rows with the total row count and the response meta.',
      fields: (c) => ({
        totalCount: c.int({
          description: 'Rows in the whole selection (all pages).',
          resolve: async (conn) => (await conn.summary()).total,
        }),
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
