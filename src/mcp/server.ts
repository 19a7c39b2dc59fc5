import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Counter, Histogram, type Registry } from 'prom-client';
import { withDeadline } from '../deadline.js';
import { databaseAppError } from '../db/errors.js';
import { closestCodes } from '../domain/suggest.js';
import { AppError, InputError } from '../errors.js';
import { REQUEST_COST_TOKENS } from '../limits.js';
import type { Logger } from '../logger.js';
import type { ClientIdentity } from '../security/client.js';
import { recordDecision } from '../security/client.js';
import { rateLimitMessage } from '../security/graphql.js';
import { retryAfterSeconds, type TokenBucketLimiter } from '../security/token-bucket.js';
import { callTool, inputToolError, toolError } from './call.js';
import { getPrompt, promptList } from './prompts.js';
import { type ResourceContext, readResource, resourceList } from './resources.js';
import type { McpTool } from './tools.js';

/** Outcome label of a tool call in the logs and metrics. */
type Outcome = 'ok' | 'invalid' | 'rate_limited' | 'timeout' | 'error';

/** Per-tool counters (registered once per app registry). */
export interface McpMetrics {
  toolCall(tool: string, outcome: Outcome, seconds: number): void;
}

/** Counts and times tool calls by tool and outcome in `registry` (exposed at /metrics). */
export function createMcpMetrics(registry: Registry): McpMetrics {
  const calls = new Counter({
    name: 'mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome (ok, invalid, rate_limited, timeout, error).',
    labelNames: ['tool', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'mcp_tool_call_duration_seconds',
    help: 'Time to answer an MCP tool call, seconds.',
    labelNames: ['tool'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    toolCall(tool, outcome, seconds) {
      calls.inc({ tool, outcome });
      duration.observe({ tool }, seconds);
    },
  };
}

/** What one MCP server instance answers with. */
export interface McpContext extends ResourceContext {
  readonly tools: readonly McpTool[];
  readonly logger: Logger;
  /** Request time limit of a tool call or resource read, ms (REQUEST_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** Base URL of the export links (`http://host:port`). */
  readonly exportBase: string;
  readonly metrics?: McpMetrics;
  /** The caller's bucket: a tool call takes what its REST twin takes. Absent on stdio (a local, trusted process). */
  readonly limiter?: TokenBucketLimiter;
  readonly client?: ClientIdentity;
}

/** The server's name and version as MCP clients show them. */
export const SERVER_INFO = { name: 'eumarket', title: 'European electricity market API', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'Day-ahead prices (EUR/MWh), cross-border flows (MW) and their classification against the price gradient for European bidding zones. Zones are short codes (DE_LU, FR) or EICs; borders are written A->B. Read eumarket://coverage for the stored spans and eumarket://classification/rules for the flow types. Results carry at most 500 rows with total_rows and next_row_offset; narrow the range, zones or borders or use a coarser resolution, or follow export_url for the whole set.';

function unknownTool(name: string, tools: readonly McpTool[]): McpError {
  const close = closestCodes(
    name,
    tools.map((t) => t.name.toUpperCase()),
  ).map((c) => c.toLowerCase());
  const hint = close.length ? ` Did you mean ${close.join(' or ')}?` : '';
  return new McpError(
    ErrorCode.InvalidParams,
    `Unknown tool: ${name}.${hint} Tools: ${tools.map((t) => t.name).join(', ')}`,
  );
}

/** Takes a REST request's tokens from the caller's bucket; the refusal's message when it is empty, else null. */
async function charge(ctx: McpContext): Promise<string | null> {
  if (!ctx.limiter || !ctx.client) return null;
  const decision = await ctx.limiter.consume(ctx.client.id, REQUEST_COST_TOKENS);
  recordDecision(ctx.client, decision);
  return decision.allowed ? null : rateLimitMessage(retryAfterSeconds(decision));
}

/** Answers one tool call, as a result or a tool error; never throws for what the caller sent. */
async function answerTool(
  ctx: McpContext,
  tool: McpTool,
  args: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<{ result: CallToolResult; outcome: Outcome }> {
  const refused = await charge(ctx);
  if (refused) return { result: toolError(refused), outcome: 'rate_limited' };
  try {
    const deps = await ctx.deps;
    const { page, text } = await withDeadline(
      ctx.timeoutMs,
      signal,
      () => callTool(tool, args, deps, ctx.exportBase),
      ctx.timeoutMs,
    );
    return {
      result: { content: [{ type: 'text', text }], structuredContent: page as unknown as Record<string, unknown> },
      outcome: 'ok',
    };
  } catch (err) {
    if (err instanceof InputError) return { result: inputToolError(tool, err), outcome: 'invalid' };
    const known = err instanceof AppError ? err : databaseAppError(err);
    if (known?.code === 'TIMEOUT')
      return {
        result: toolError(`${known.message}: narrow the range, zones or borders, or use a coarser resolution.`),
        outcome: 'timeout',
      };
    if (known) return { result: toolError(known.message), outcome: 'error' };
    const errorId = randomUUID();
    ctx.logger.error({ err, errorId, tool: tool.name }, 'mcp tool failed');
    return { result: toolError(`Internal error (error id ${errorId}); try again later.`), outcome: 'error' };
  }
}

/** Runs a resource read or prompt under the time limit; caller errors become JSON-RPC errors. */
async function answering<T>(ctx: McpContext, signal: AbortSignal, work: () => Promise<T> | T): Promise<T> {
  try {
    return await withDeadline(ctx.timeoutMs, signal, async () => work(), ctx.timeoutMs);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'BAD_USER_INPUT'))
      throw new McpError(ErrorCode.InvalidParams, err.message);
    const known = err instanceof AppError ? err : databaseAppError(err);
    if (known) throw new McpError(ErrorCode.InternalError, known.message);
    const errorId = randomUUID();
    ctx.logger.error({ err, errorId }, 'mcp request failed');
    throw new McpError(ErrorCode.InternalError, `Internal error (error id ${errorId})`);
  }
}

/** An MCP server (tools, resources, prompts) over the services; connect it to one transport. */
export function createMcpServer(ctx: McpContext): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: INSTRUCTIONS,
  });
  const byName = new Map(ctx.tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ctx.tools.map(({ endpoint: _e, ...tool }) => tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const tool = byName.get(name);
    if (!tool) throw unknownTool(name, ctx.tools);
    const started = performance.now();
    const { result, outcome } = await answerTool(ctx, tool, args, extra.signal);
    const seconds = (performance.now() - started) / 1000;
    ctx.metrics?.toolCall(tool.name, outcome, seconds);
    ctx.logger.info(
      { tool: tool.name, outcome, ms: Math.round(seconds * 1000), client: ctx.client?.id },
      'mcp tool call',
    );
    return result;
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: resourceList() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const refused = await charge(ctx);
    if (refused) throw new McpError(ErrorCode.InvalidRequest, refused);
    return answering(ctx, extra.signal, () => readResource(request.params.uri, ctx));
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: promptList() }));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    answering(ctx, extra.signal, () => getPrompt(request.params.name, request.params.arguments)),
  );
  return server;
}
