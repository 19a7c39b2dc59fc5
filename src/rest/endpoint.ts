import type { z } from 'zod';
import { InputError, type InputIssue } from '../errors.js';
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

function isArrayParam(schema: z.ZodType): boolean {
  let s: z.ZodType = schema;
  while ('unwrap' in s && typeof s.unwrap === 'function' && s.def.type !== 'array') s = s.unwrap() as z.ZodType;
  return s.def.type === 'array';
}

/**
 * Reads query parameters into a plain object: declared arrays take every value, scalars the last
 * one, unknown parameters are ignored (FastAPI behaviour).
 */
export function readQuery(schema: z.ZodObject, params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const values = params.getAll(name);
    if (values.length === 0) continue;
    out[name] = isArrayParam(field as z.ZodType) ? values : values[values.length - 1];
  }
  return out;
}

function issueType(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return 'enum';
    case 'invalid_type':
      return issue.expected === 'int' || issue.expected === 'number' ? 'int_parsing' : `${issue.expected}_type`;
    case 'too_small':
      return 'greater_than_equal';
    case 'too_big':
      return 'less_than_equal';
    default:
      return 'value_error';
  }
}

function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `Input should be ${issue.values.map((v) => `'${String(v)}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
    case 'invalid_type':
      return issue.expected === 'int' || issue.expected === 'number'
        ? 'Input should be a valid integer, unable to parse string as an integer'
        : issue.message;
    case 'too_small':
      return `Input should be greater than or equal to ${String(issue.minimum)}`;
    case 'too_big':
      return `Input should be less than or equal to ${String(issue.maximum)}`;
    default:
      return issue.message;
  }
}

/** Validates a query object; zod issues become FastAPI-style {@link InputIssue}s. @throws InputError */
export function parseQuery<Q extends z.ZodObject>(schema: Q, raw: Record<string, unknown>): z.infer<Q> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issues: InputIssue[] = result.error.issues.map((i) => {
    const param = String(i.path[0] ?? 'query');
    return { param, msg: issueMessage(i), type: issueType(i), input: raw[param] };
  });
  throw new InputError(issues);
}
