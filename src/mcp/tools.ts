import { z } from 'zod';
import { enumValues } from '../contract/enums.js';
import { declOf, type ParamDecl, type ParamRef, useOf } from '../contract/params.js';
import type { Endpoint } from '../rest/endpoint.js';
import { MCP_LIMITS } from './limits.js';

/**
 * The MCP tools, derived from the REST endpoint declarations (rest/endpoints/index.ts): one tool per
 * endpoint, its arguments the endpoint's declared parameters under their REST names (kind, bounds,
 * default and description with units as declared), its output the endpoint's row schema. Nothing
 * here names an endpoint: a new declared endpoint is a new tool. Every surface-specific choice of
 * the MCP surface (tool names, the paging arguments, JSON types of the values) lives in this module.
 */

/** A JSON Schema object, as MCP carries it. */
export type JsonSchema = { readonly [key: string]: unknown };

/** One MCP tool and the endpoint it answers with. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { type: 'object' };
  readonly outputSchema: JsonSchema & { type: 'object' };
  readonly annotations: {
    readonly title: string;
    readonly readOnlyHint: true;
    readonly idempotentHint: true;
    readonly destructiveHint: false;
    readonly openWorldHint: false;
  };
  readonly endpoint: Endpoint;
}

/** The MCP-only arguments that page a tool's rows: the window [row_offset, row_offset + max_rows) of all rows. */
export const PAGING_ARGS = {
  maxRows: 'max_rows',
  rowOffset: 'row_offset',
} as const;

/** The tool name of an endpoint: its path's last segment in snake case (`/api/v1/flow-type-summary` -> `flow_type_summary`). */
export function toolName(endpoint: Pick<Endpoint, 'path'>): string {
  return (endpoint.path.split('/').pop() ?? endpoint.path).replaceAll('-', '_');
}

/** The JSON Schema of one declared parameter's value: JSON types (numbers, booleans, arrays), bounds and default as declared. */
function valueSchema(p: ParamDecl): Record<string, unknown> {
  const shape = p.shape ? (z.toJSONSchema(p.shape) as Record<string, unknown>) : {};
  const { $schema: _s, ...limits } = shape;
  switch (p.kind) {
    case 'string':
      return { type: 'string' };
    case 'strings':
      return { ...limits, type: 'array', items: { type: 'string' } };
    case 'int':
    case 'float':
      return {
        type: p.kind === 'int' ? 'integer' : 'number',
        minimum: p.min,
        ...(p.max === undefined ? {} : { maximum: p.max }),
        default: p.default,
      };
    case 'enum':
      return { type: 'string', enum: enumValues(p.values), ...(p.default === undefined ? {} : { default: p.default }) };
    case 'enums':
      return { ...limits, type: 'array', items: { type: 'string', enum: enumValues(p.values) } };
    case 'boolean':
      return { type: 'boolean', default: p.default };
  }
}

/** The endpoint's parameters a tool takes: those with a REST name (GraphQL-only ones are left out). */
export function toolParams(endpoint: Endpoint): readonly ParamRef[] {
  return (endpoint.params ?? []).filter((ref) => declOf(ref).rest !== undefined);
}

function paramSchema(ref: ParamRef): Record<string, unknown> {
  const { param, rest } = useOf(ref);
  return {
    ...valueSchema(param),
    description: rest ?? param.description,
    ...(param.example === undefined ? {} : { examples: [param.example] }),
  };
}

/** The paging arguments' schemas: MCP bounds every result (at most {@link MCP_LIMITS.maxRows} rows). */
const PAGING_SCHEMAS = {
  [PAGING_ARGS.maxRows]: {
    type: 'integer',
    minimum: 1,
    maximum: MCP_LIMITS.maxRows,
    default: MCP_LIMITS.maxRows,
    description: `Rows returned at most (1 to ${MCP_LIMITS.maxRows}); the result says how many rows the whole answer has. Narrow the range, zones or borders, or coarsen the resolution for fewer rows, or page with ${PAGING_ARGS.rowOffset}; the whole set is at export_url where one is given.`,
  },
  [PAGING_ARGS.rowOffset]: {
    type: 'integer',
    minimum: 0,
    default: 0,
    description: `Rows of the whole answer skipped before the first returned (result.next_row_offset gives the next page).`,
  },
} as const;

/** The input schema of an endpoint's tool. */
export function inputSchemaOf(endpoint: Endpoint): McpTool['inputSchema'] {
  const properties = Object.fromEntries(toolParams(endpoint).map((ref) => [declOf(ref).rest!, paramSchema(ref)]));
  return { type: 'object', properties: { ...properties, ...PAGING_SCHEMAS }, additionalProperties: false };
}

/** Drops `additionalProperties: false` (lineage rows add `series`) and JSON Schema ids. */
function open(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, id: _id, additionalProperties: _a, ...rest } = schema;
  return rest;
}

/**
 * A row schema as MCP clients validate it: the REST row's fields (extra ones allowed), its item
 * schema and the definitions it refers to (`#/$defs/...`, resolved from the output schema's root).
 */
function rowJsonSchema(endpoint: Endpoint): { items: JsonSchema; defs: Record<string, JsonSchema> } {
  const { $defs = {}, ...schema } = z.toJSONSchema(endpoint.row, { unrepresentable: 'any' }) as Record<string, unknown>;
  const defs = Object.fromEntries(
    Object.entries($defs as Record<string, Record<string, unknown>>).map(([k, v]) => [k, open(v)]),
  );
  return { items: open(schema), defs };
}

/** The output schema of an endpoint's tool: the REST envelope's meta, the window of rows and how to get the rest. */
export function outputSchemaOf(endpoint: Endpoint): McpTool['outputSchema'] {
  const row = rowJsonSchema(endpoint);
  return {
    type: 'object',
    $defs: row.defs,
    properties: {
      meta: {
        type: 'object',
        description: 'The REST meta of the whole answer (provenance, sources, range, resolution).',
      },
      total_rows: { type: 'integer', description: 'Rows of the whole answer.' },
      row_offset: { type: 'integer', description: 'Rows of the whole answer skipped before `rows`.' },
      returned_rows: { type: 'integer', description: 'Rows in `rows`.' },
      next_row_offset: {
        type: ['integer', 'null'],
        description: `The ${PAGING_ARGS.rowOffset} of the next page; null when this page ends the answer.`,
      },
      export_url: {
        type: ['string', 'null'],
        description: 'CSV of the whole set (add format=ndjson|arrow|parquet); null when the operation has no export.',
      },
      rows: { type: 'array', items: row.items, description: endpoint.summary },
    },
    required: ['meta', 'total_rows', 'row_offset', 'returned_rows', 'next_row_offset', 'export_url', 'rows'],
  };
}

/** The tool of an endpoint. */
export function toolOf(endpoint: Endpoint): McpTool {
  const title = endpoint.summary;
  return {
    name: toolName(endpoint),
    title,
    description: `${endpoint.description}\n\nSame answer as GET ${endpoint.path}; at most ${MCP_LIMITS.maxRows} rows per call (page with ${PAGING_ARGS.rowOffset}).`,
    inputSchema: inputSchemaOf(endpoint),
    outputSchema: outputSchemaOf(endpoint),
    annotations: { title, readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    endpoint,
  };
}

/** Tools of the endpoints, in their order. */
export function toolsOf(endpoints: readonly Endpoint[]): readonly McpTool[] {
  return endpoints.map(toolOf);
}

/** An argument value as REST reads its query text. */
function queryText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A tool's arguments as the REST query they stand for: each declared parameter under its REST
 * name, lists as lists (a single value taken as a list of one), numbers and booleans as their
 * text, so REST's own parsing (and 422 messages) applies. Paging arguments and unknown names are
 * returned apart.
 */
export function restQueryOf(
  tool: McpTool,
  args: Readonly<Record<string, unknown>>,
): { query: Record<string, string | string[]>; paging: Record<string, unknown>; unknown: string[] } {
  const kinds = new Map(toolParams(tool.endpoint).map((ref) => [declOf(ref).rest!, declOf(ref).kind]));
  const query: Record<string, string | string[]> = {};
  const paging: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (name === PAGING_ARGS.maxRows || name === PAGING_ARGS.rowOffset) paging[name] = value;
    else if (!kinds.has(name)) unknown.push(name);
    else if (kinds.get(name) === 'strings' || kinds.get(name) === 'enums')
      query[name] = (Array.isArray(value) ? value : [value]).map(queryText);
    else query[name] = queryText(value);
  }
  return { query, paging, unknown };
}
