import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { wireRowOf } from '../contract/json.js';
import { closestCodes } from '../domain/suggest.js';
import { InputError, type InputIssue } from '../errors.js';
import { REST_PREFIX } from '../http/paths.js';
import type { RowTable } from '../rest/endpoint.js';
import { inQueryOrder, parseQuery } from '../rest/query.js';
import { metaToWire } from '../rest/schemas.js';
import type { ServiceDeps } from '../services/context.js';
import { RowBatches } from '../domain/row-batches.js';
import { MCP_LIMITS } from './limits.js';
import { type McpTool, PAGING_ARGS, restQueryOf } from './tools.js';
import { textTable } from './text.js';

/**
 * REST endpoints with a whole-set export (the export URL contract): `/api/v1/<name>` is exported at
 * `/api/v1/export/<name>` with the same query, without `limit`/`offset`, plus `format`.
 */
const EXPORTED = new Set(['prices', 'flows', 'ci-share', 'flow-type-summary']);

/** The structured content of a tool result. */
export interface ToolPage {
  readonly meta: unknown;
  readonly total_rows: number;
  readonly row_offset: number;
  readonly returned_rows: number;
  readonly next_row_offset: number | null;
  readonly export_url: string | null;
  readonly rows: unknown[];
}

/** The export URL of a REST query, or null when the endpoint has no export. */
export function exportUrl(
  path: string,
  query: Readonly<Record<string, string | string[]>>,
  base: string,
): string | null {
  const name = path.slice(REST_PREFIX.length + 1);
  if (!EXPORTED.has(name)) return null;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'limit' || key === 'offset') continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  }
  search.set('format', 'csv');
  return `${base.replace(/\/$/, '')}${REST_PREFIX}/export/${name}?${search}`;
}

/** A paging argument checked against its bounds, or its default. @throws InputError */
function pagingValue(name: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new InputError([{ param: name, msg: 'Input should be a valid integer', type: 'int_parsing', input: value }]);
  if (n < min)
    throw new InputError([
      { param: name, msg: `Input should be greater than or equal to ${min}`, type: 'greater_than_equal', input: n },
    ]);
  if (n > max)
    throw new InputError([
      { param: name, msg: `Input should be less than or equal to ${max}`, type: 'less_than_equal', input: n },
    ]);
  return n;
}

function unknownArgument(tool: McpTool, name: string): InputIssue {
  const known = Object.keys(tool.inputSchema.properties as object);
  const close = closestCodes(name, known).map((c) => c.toLowerCase());
  const hint = close.length ? `; did you mean ${close.join(' or ')}?` : '';
  return {
    param: name,
    msg: `Unknown argument${hint} Arguments of ${tool.name}: ${known.join(', ')}`,
    type: 'extra_forbidden',
  };
}

/** The window [offset, offset + limit) of a table's rows as REST writes them, and how many rows it has. */
async function windowOf(table: RowTable, offset: number, limit: number): Promise<{ total: number; rows: unknown[] }> {
  const wire = wireRowOf(table.contract, table.rowTimeZone);
  const rows: unknown[] = [];
  let total = 0;
  const take = (batch: readonly unknown[]) => {
    const from = Math.max(0, offset - total);
    const to = Math.min(batch.length, offset + limit - total);
    for (let i = from; i < to; i++) rows.push(wire(batch[i]));
    total += batch.length;
  };
  if (table.rows instanceof RowBatches) for await (const batch of table.rows) take(batch);
  else take(table.rows as readonly unknown[]);
  return { total, rows: JSON.parse(JSON.stringify(rows)) as unknown[] };
}

/**
 * Answers a tool call as its REST twin answers the same arguments: REST's parsing, the endpoint's
 * handler, the rows as REST writes them, bounded to a window of at most {@link MCP_LIMITS.maxRows}.
 * @throws InputError for arguments REST answers 422 (and unknown or out-of-bounds paging arguments)
 */
export async function callTool(
  tool: McpTool,
  args: Readonly<Record<string, unknown>>,
  deps: ServiceDeps,
  exportBase: string,
): Promise<{ page: ToolPage; text: string }> {
  const { query: raw, paging, unknown } = restQueryOf(tool, args);
  if (unknown.length) throw new InputError(unknown.map((name) => unknownArgument(tool, name)));
  const limit = pagingValue(
    PAGING_ARGS.maxRows,
    paging[PAGING_ARGS.maxRows],
    1,
    MCP_LIMITS.maxRows,
    MCP_LIMITS.maxRows,
  );
  const offset = pagingValue(PAGING_ARGS.rowOffset, paging[PAGING_ARGS.rowOffset], 0, Number.MAX_SAFE_INTEGER, 0);
  const { endpoint } = tool;
  const query = parseQuery(endpoint.query, raw);
  const { meta, data } = await inQueryOrder(endpoint.query, () => endpoint.handle(deps, query));
  const { total, rows } = await windowOf(data.table, offset, limit);
  const next = offset + rows.length < total ? offset + rows.length : null;
  const page: ToolPage = {
    meta: metaToWire(meta),
    total_rows: total,
    row_offset: offset,
    returned_rows: rows.length,
    next_row_offset: next,
    export_url: exportUrl(endpoint.path, raw, exportBase),
    rows,
  };
  return { page, text: pageText(tool, page) };
}

/** The text rendering of a page: a line of counts, a small table, and how to get the rest. */
function pageText(tool: McpTool, page: ToolPage): string {
  const lines = [
    `${tool.title}: rows ${page.returned_rows ? page.row_offset + 1 : 0}-${page.row_offset + page.returned_rows} of ${page.total_rows}.`,
  ];
  if (page.rows.length) lines.push('', textTable(page.rows.slice(0, MCP_LIMITS.tableRows)));
  if (page.rows.length > MCP_LIMITS.tableRows)
    lines.push(`(${page.rows.length - MCP_LIMITS.tableRows} more returned rows in the structured content)`);
  if (page.next_row_offset !== null)
    lines.push(
      `More rows: call again with ${PAGING_ARGS.rowOffset}=${page.next_row_offset}, or narrow the range, zones or borders, or use a coarser resolution.`,
    );
  if (page.export_url) lines.push(`Whole set as CSV: ${page.export_url}`);
  return lines.join('\n');
}

/** A tool error whose text says what to change. */
export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The tool error of arguments REST answers 422: each argument at fault, why, and the REST suggestion. */
export function inputToolError(tool: McpTool, err: InputError): CallToolResult {
  const lines = err.issues.map(
    (i) => `- ${i.param}: ${i.msg}${i.input === undefined ? '' : ` (got ${quoted(i.input)})`}`,
  );
  return toolError(`Invalid arguments for ${tool.name}; change these and call again:\n${lines.join('\n')}`);
}

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MCP_LIMITS.quotedChars ? `${text.slice(0, MCP_LIMITS.quotedChars)}...` : text;
}
