import { z } from 'zod';
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
import { enumValues, FLOW_TYPE } from '../../contract/enums.js';
import type { InputOf } from '../../contract/params.js';
import { flows } from '../../operations/flows.js';
import { inTimeZone } from '../rows/zoned.js';
import { MetaRef } from './common.js';
import { assertForward, cursorCode, cursorInstant, keysetPage, type Page, type PageArgs } from '../connection.js';
import { type RowView, rowViewType } from '../rows/view-type.js';
import { connectionOf } from './operation-fields.js';

const FlowRow = rowViewType(flows.contract, { FlowType: enumType(FLOW_TYPE) });

/** The `flows` connection as declared (operations/flows.ts). */
const FLOWS = connectionOf(flows);

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
  args: InputOf<typeof flows.params>,
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
  [FLOWS.field]: t.connection(
    {
      type: FlowRow.ref,
      description: FLOWS.description,
      ...connectionArgs(t.arg, FLOWS.params, FLOWS.maxPage, resolveFlows),
    },
    {
      ...FLOWS.connection,
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
