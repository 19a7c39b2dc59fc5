import type { z } from 'zod';
import { InputError } from '../../errors.js';
import { PAGE_LIMITS } from '../../limits.js';
import { decodeCursor, type Edge, encodeCursor, lazyEdges } from './common.js';

/** Rows of a page when `first` is omitted. */
export const DEFAULT_PAGE_SIZE = PAGE_LIMITS.graphqlDefault;

/** The Relay arguments of a connection; only forward paging (first/after) is served. */
export interface PageArgs {
  readonly first?: number | null;
  readonly after?: string | null;
  readonly last?: number | null;
  readonly before?: string | null;
}

/** Relay page information. */
export interface PageInfo {
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  readonly startCursor: string | null;
  readonly endCursor: string | null;
}

/** A page of a connection: edges with lazily encoded cursors and the page information. */
export interface Page<T> {
  readonly edges: Edge<T>[];
  readonly pageInfo: PageInfo;
}

/** A connection's cursor: the tuple schema of its parts and the parts of a node, in sort order. */
export interface KeysetCursor<T, S extends z.ZodType> {
  readonly schema: S;
  readonly partsOf: (node: T) => readonly unknown[];
}

/** @throws InputError on `last` or `before`, the one given (BAD_USER_INPUT), when backward paging is asked for. */
export function assertForward(args: PageArgs): void {
  if (args.last != null || args.before != null) {
    throw InputError.of(args.last != null ? 'last' : 'before', 'Only forward pagination (first/after) is supported', 'value_error');
  }
}

/**
 * One forward keyset page: decodes `after`, asks `fetch` for one row more than `first` (default
 * {@link DEFAULT_PAGE_SIZE}) after it to learn whether rows follow, and keeps `first` of them.
 * @throws InputError on `after` when the cursor is not one of this connection's.
 */
export async function keysetPage<T, S extends z.ZodType>(
  args: PageArgs,
  cursor: KeysetCursor<T, S>,
  fetch: (page: { after: z.output<S> | undefined; limit: number }) => Promise<readonly T[]>,
): Promise<Page<T>> {
  const limit = args.first ?? DEFAULT_PAGE_SIZE;
  const after = args.after ? decodeCursor(args.after, cursor.schema) : undefined;
  const rows = await fetch({ after, limit: limit + 1 });
  const edges = lazyEdges(rows.slice(0, limit), (node) => encodeCursor(cursor.partsOf(node)));
  return {
    edges,
    pageInfo: { hasNextPage: rows.length > limit, hasPreviousPage: after !== undefined, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}
