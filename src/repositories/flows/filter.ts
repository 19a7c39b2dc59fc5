import { Prisma } from '../../generated/prisma/client.js';

/** Filters shared by the flow queries: null borderIds means every border, an empty array none. */
export interface FlowFilter {
  readonly from: Date;
  readonly to: Date;
  readonly borderIds: readonly number[] | null;
  readonly flowTypes: readonly string[];
}

/** Direction of a border-hour's row: its exporter, A->B when no direction (near-zero flow, outage). */
export const DIR = Prisma.sql`coalesce(h.export_from_a, true)`;

/**
 * Whether the flow a border-hour `h` serves fills a gap upstream: the physical flow's flag, or the
 * scheduled exchange's where the flow is derived from it.
 */
export const FLOW_INTERPOLATED = Prisma.sql`(CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END)`;

/** SQL conditions of a filter on border_hour aliased `h` (assessed hours only). */
export function hourConditions(f: FlowFilter): Prisma.Sql {
  const borders = f.borderIds
    ? Prisma.sql`AND h.border_id = ANY(${f.borderIds.map(Number)}::smallint[])`
    : Prisma.empty;
  const types = f.flowTypes.length
    ? Prisma.sql`AND h.flow_type::text = ANY(${[...f.flowTypes]}::text[])`
    : Prisma.empty;
  return Prisma.sql`h.ts >= ${f.from} AND h.ts < ${f.to} AND h.flow_type IS NOT NULL ${borders} ${types}`;
}

/**
 * The border and flow type conditions of a filter on a rollup aliased `d` (border_id, flow_type),
 * each starting with AND; empty when the filter has neither.
 */
export function rollupKeyConditions(f: Pick<FlowFilter, 'borderIds' | 'flowTypes'>, alias = 'd'): Prisma.Sql {
  const a = Prisma.raw(alias);
  const borders = f.borderIds
    ? Prisma.sql`AND ${a}.border_id = ANY(${f.borderIds.map(Number)}::smallint[])`
    : Prisma.empty;
  const types = f.flowTypes.length
    ? Prisma.sql`AND ${a}.flow_type::text = ANY(${[...f.flowTypes]}::text[])`
    : Prisma.empty;
  return Prisma.sql`${borders} ${types}`;
}
