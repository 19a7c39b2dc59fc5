import type { z } from 'zod';
import type { ServiceDeps } from '../services/context.js';
import type { Meta } from '../services/meta.js';

/**
 * Rows a handler serialised itself, for large pages: `chunks()` yields the JSON texts of
 * consecutive rows (objects of the endpoint's row schema, comma-separated inside a chunk, no
 * brackets), exactly as `JSON.stringify` writes them. The router streams the chunks as they are
 * produced, so the response never exists as one string next to the rows it came from.
 */
export class JsonRows {
  constructor(readonly chunks: () => Iterator<string>) {}
}

/** A REST endpoint: its query and row schemas feed both the handler and the OpenAPI document. */
export interface Endpoint<Q extends z.ZodObject = z.ZodObject, R extends z.ZodObject = z.ZodObject> {
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly query: Q;
  readonly row: R;
  readonly handle: (deps: ServiceDeps, query: z.infer<Q>) => Promise<{ meta: Meta; data: z.infer<R>[] | JsonRows }>;
}

/** Declares an endpoint with its types tied together. */
export function defineEndpoint<Q extends z.ZodObject, R extends z.ZodObject>(e: Endpoint<Q, R>): Endpoint<Q, R> {
  return e;
}
