/** Relay connections: opaque keyset cursors, lazily encoded edges and forward keyset pages. */
import { z } from 'zod';
import { isSupportedInstant } from '../domain/time.js';
import { InputError } from '../errors.js';
import { PAGE_LIMITS } from '../limits.js';

/** Opaque keyset cursor: base64url of a JSON array. */
export const encodeCursor = (parts: readonly unknown[]): string =>
  Buffer.from(JSON.stringify(parts)).toString('base64url');

/** A connection edge whose cursor is only encoded when a client selects it. */
export interface Edge<T> {
  readonly node: T;
  readonly cursor: string;
}

class LazyEdge<T> implements Edge<T> {
  constructor(
    readonly node: T,
    private readonly cursorOf: (node: T) => string,
  ) {}

  get cursor(): string {
    return this.cursorOf(this.node);
  }
}

/** Edges of a page; `cursorOf` runs only for the cursors a query reads. */
export const lazyEdges = <T>(nodes: readonly T[], cursorOf: (node: T) => string): Edge<T>[] =>
  nodes.map((n) => new LazyEdge(n, cursorOf));

const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,1024}$/;

/**
 * A cursor's datetime part: RFC 3339 UTC text as {@link encodeCursor} writes it, within the
 * supported range of instants (1900-01-01 to 2200-01-01 UTC).
 */
export const cursorInstant = z.iso
  .datetime()
  .transform((v) => new Date(v))
  .refine(isSupportedInstant, 'datetime outside 1900-01-01..2200-01-01 UTC');

/** A cursor's code part (zone code, flow type): short non-empty text. */
export const cursorCode = z.string().min(1).max(64);

/**
 * Decodes a cursor made by {@link encodeCursor} and validates its parts with `schema` (one tuple
 * schema per connection), returning the parsed parts.
 * @throws InputError on `after` (BAD_USER_INPUT) when the cursor is not base64url, not JSON, or not of that shape.
 */
export function decodeCursor<S extends z.ZodType>(cursor: string, schema: S): z.output<S> {
  let parts: unknown;
  try {
    if (!CURSOR_TEXT.test(cursor)) throw new Error('not base64url');
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw InputError.of('after', 'Invalid cursor: pass the cursor of an edge unchanged', 'value_error');
  }
  const result = schema.safeParse(parts);
  if (!result.success)
    throw InputError.of('after', 'Invalid cursor: pass the cursor of an edge unchanged', 'value_error');
  return result.data;
}

/** Rows of a page when `first` is omitted. */
export const DEFAULT_PAGE_SIZE = PAGE_LIMITS.graphqlDefault;

/** The Relay arguments of a connection; only forward paging (first/after) is served. */
/**
 * A forward connection field's cost (one per row a page may hold: `first`, else the default page
 * size) and its check of `first` (1 to `max` rows).
 */
export function pageLimits(max: number) {
  return {
    complexity: (args: { readonly first?: number | null }) => ({
      field: 1,
      multiplier: args.first ?? DEFAULT_PAGE_SIZE,
    }),
    validate: z.object({ first: z.number().int().min(1).max(max).nullish() }).loose(),
  };
}

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
    throw InputError.of(
      args.last != null ? 'last' : 'before',
      'Only forward pagination (first/after) is supported',
      'value_error',
    );
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
    pageInfo: {
      hasNextPage: rows.length > limit,
      hasPreviousPage: after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
