import { PAGE_LIMITS } from '../limits.js';
import type { FlowBasis, FlowRecord } from '../domain/records.js';
import { findFlowOffsetPage, summarizeFlows } from '../repositories/flows/positions.js';
import type { FlowQuery } from '../repositories/flows/row-query.js';
import { findFlowRows } from '../repositories/flows/read-rows.js';
import { findFlowSources } from '../repositories/flows/sources.js';
import type { ServiceDeps } from './context.js';
import { resolveFlowSelection, type FlowSelection, type ResolvedFlowSelection } from './flow-filter.js';
import { type Meta, provenanceOf, sourceLabels } from './meta.js';
import type { RowsWithZone } from './time-zone.js';

/** A /flows page request. */
export interface FlowsInput extends FlowSelection {
  readonly limit?: number;
  readonly offset?: number;
}

/**
 * meta of a flow response: `derived` when any row's flow was derived from scheduled exchanges
 * (physical flow missing) or any source is the demo data set, else `measured`.
 */
export async function flowMeta(
  deps: ServiceDeps,
  sel: ResolvedFlowSelection,
  derived: boolean,
): Promise<Omit<Meta, 'pagination'>> {
  return metaOf(sel, derived, await findFlowSources(deps.db, sel.filter, deps.memo));
}

function metaOf(sel: ResolvedFlowSelection, derived: boolean, sources: readonly string[]): Omit<Meta, 'pagination'> {
  return {
    provenance: provenanceOf(derived ? 'derived' : 'measured', sources),
    upstreamSources: sourceLabels(sources),
    range: sel.range,
    resolution: sel.resolution,
    timeZone: sel.timeZone.label,
  };
}

/** Under `tz`, the IANA zone a flow row is written in: its border's zone A's (A sorts first). */
export function flowRowTimeZone(
  sel: ResolvedFlowSelection,
): ((row: { zoneFrom: string; zoneTo: string }) => string) | undefined {
  const perZone = sel.timeZone.perZone;
  if (!perZone) return undefined;
  return (r) => perZone.get(r.zoneFrom < r.zoneTo ? r.zoneFrom : r.zoneTo) ?? 'UTC';
}

/** One /flows page, ordered by datetime, zone from, zone to, flow type, with meta.pagination. */
export async function getFlowOffsetPage(deps: ServiceDeps, input: FlowsInput): Promise<RowsWithZone<FlowRecord>> {
  const sel = resolveFlowSelection(deps, input);
  const limit = input.limit ?? PAGE_LIMITS.flows;
  const offset = input.offset ?? 0;
  const q = { ...sel.filter, resolution: sel.resolution, timeZones: sel.borderTimeZones };
  const [{ rows, ...summary }, sources] = await Promise.all([
    findFlowOffsetPage(deps.db, q, { offset, limit }),
    findFlowSources(deps.db, sel.filter, deps.memo),
  ]);
  const meta = metaOf(sel, summary.derived, sources);
  const next = offset + limit < summary.total ? offset + limit : null;
  return {
    meta: { ...meta, pagination: { total: summary.total, limit, offset, nextOffset: next } },
    rows,
    rowTimeZone: flowRowTimeZone(sel),
  };
}

/** A resolved flow query for keyset paging (GraphQL): filter, resolution and basis. */
export function resolveFlowQuery(
  deps: ServiceDeps,
  input: FlowSelection & { basis?: FlowBasis },
): { sel: ResolvedFlowSelection; query: FlowQuery } {
  const sel = resolveFlowSelection(deps, input);
  return {
    sel,
    query: {
      ...sel.filter,
      resolution: sel.resolution,
      basis: input.basis ?? 'physical',
      timeZones: sel.borderTimeZones,
    },
  };
}

/** One keyset page of flow rows after `after`, at most `limit`. */
export function getFlowKeysetPage(
  deps: ServiceDeps,
  query: FlowQuery,
  page: { after?: FlowQuery['after']; limit: number },
): Promise<FlowRecord[]> {
  return findFlowRows(deps.db, { ...query, ...page });
}

/** Total rows and derived flag of a flow query. */
export function summarizeFlowRows(deps: ServiceDeps, query: FlowQuery): Promise<{ total: number; derived: boolean }> {
  return summarizeFlows(deps.db, query);
}
