import { z } from 'zod';
import { isSupportedInstant } from '../../domain/time.js';
import { APPLIED_RESOLUTION, PROVENANCE, REQUESTED_RESOLUTION } from '../../contract/enums.js';
import { META } from '../../contract/meta.js';
import { InputError } from '../../errors.js';
import { builder } from '../builder.js';
import { enumType } from './args.js';
import { metaObjectType } from './meta.js';

/** Requested resolution as a GraphQL enum; values map to the REST spelling. */
export const ResolutionEnum = enumType(REQUESTED_RESOLUTION);

/** Applied resolution as reported in meta. */
export const AppliedResolutionEnum = enumType(APPLIED_RESOLUTION);

/** How the values of a result came to be (REST meta.provenance). */
export const ProvenanceEnum = enumType(PROVENANCE);

/** Response meta (REST meta, spec 2.2), from its declaration. */
export const MetaRef = metaObjectType(META);

/** Opaque keyset cursor: base64url of a JSON array. */
export const encodeCursor = (parts: readonly unknown[]): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** A connection edge whose cursor is only encoded when a client selects it. */
export interface Edge<T> {
  readonly node: T;
  readonly cursor: string;
}

class LazyEdge<T> implements Edge<T> {
  constructor(readonly node: T, private readonly cursorOf: (node: T) => string) {}

  get cursor(): string {
    return this.cursorOf(this.node);
  }
}

/** Edges of a page; `cursorOf` runs only for the cursors a query reads. */
export const lazyEdges = <T>(nodes: readonly T[], cursorOf: (node: T) => string): Edge<T>[] => nodes.map((n) => new LazyEdge(n, cursorOf));

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
  if (!result.success) throw InputError.of('after', 'Invalid cursor: pass the cursor of an edge unchanged', 'value_error');
  return result.data;
}
