import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Plugin } from 'graphql-yoga';
import { json } from '../http/errors.js';
import { routePath } from '../http/paths.js';
import type { Logger } from '../logger.js';
import { accessOf, addressClient, UNKNOWN_ADDRESS } from '../security/client.js';
import type { TokenBucketLimiter } from '../security/token-bucket.js';
import type { ServiceDeps } from '../services/context.js';
import type { ClassificationThresholds } from '../domain/classification.js';
import { MCP_LIMITS, MCP_PATH } from './limits.js';
import { createMcpServer, type McpMetrics } from './server.js';
import type { McpTool } from './tools.js';

/** Options of {@link useMcp}. */
export interface McpPluginOptions {
  readonly tools: readonly McpTool[];
  readonly deps: ServiceDeps;
  readonly thresholds: ClassificationThresholds;
  readonly logger: Logger;
  readonly limiter: TokenBucketLimiter;
  readonly metrics?: McpMetrics;
  /** Request time limit, ms (REQUEST_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** Browser origins allowed besides loopback ones (MCP_ALLOWED_ORIGINS); `*` any. */
  readonly allowedOrigins: readonly string[];
  /** MCP requests one client may have in flight at once (MCP_REQUESTS_IN_FLIGHT_PER_CLIENT). */
  readonly inFlightPerClient: number;
}

/** A JSON-RPC error answered before the MCP server sees the request. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a browser origin may call `/mcp` (DNS-rebinding protection): loopback origins (a local
 * assistant's web UI), the listed ones, or any with `*`. A request without Origin is not from a
 * browser page and is allowed.
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
}

/** Splits MCP_ALLOWED_ORIGINS. */
export const parseMcpOrigins = (value: string): string[] =>
  value
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);

/**
 * Serves MCP over Streamable HTTP at `/mcp`, stateless: each POST is answered by a fresh server
 * and transport in JSON (no session is held, so none can pile up; GET and DELETE are 405). Install
 * after the access plugin: it has identified the caller (and refused a missing or bad key); each
 * tool call then takes its REST twin's tokens from the caller's bucket. Refused before any work:
 * a disallowed Origin (403), a body over {@link MCP_LIMITS.maxBodyBytes} (413), more than
 * `inFlightPerClient` requests of one client at once (429).
 */
export function useMcp(opts: McpPluginOptions): Plugin {
  const inFlight = new Map<string, number>();
  const serve = async (request: Request, url: URL): Promise<Response> => {
    const client = accessOf(request)?.client ?? addressClient(UNKNOWN_ADDRESS);
    const running = inFlight.get(client.id) ?? 0;
    if (running >= opts.inFlightPerClient)
      return rpcError(429, -32000, `Too many MCP requests in flight (at most ${opts.inFlightPerClient} per client)`, {
        'retry-after': '1',
      });
    inFlight.set(client.id, running + 1);
    const server = createMcpServer({
      tools: opts.tools,
      deps: opts.deps,
      thresholds: opts.thresholds,
      logger: opts.logger,
      timeoutMs: opts.timeoutMs,
      exportBase: url.origin,
      limiter: opts.limiter,
      client,
      ...(opts.metrics ? { metrics: opts.metrics } : {}),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MCP_LIMITS.maxBodyBytes,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request);
    } finally {
      const left = (inFlight.get(client.id) ?? 1) - 1;
      if (left > 0) inFlight.set(client.id, left);
      else inFlight.delete(client.id);
      void server.close().catch(() => undefined);
    }
  };
  return {
    onRequest({ url, request, endResponse }) {
      if (routePath(url.pathname) !== MCP_PATH) return;
      const origin = request.headers.get('origin');
      if (origin !== null && !originAllowed(origin, opts.allowedOrigins))
        return endResponse(rpcError(403, -32000, `Forbidden: Origin ${origin} may not call ${MCP_PATH}`));
      if (request.method !== 'POST')
        return endResponse(
          rpcError(405, -32000, 'Method Not Allowed: this MCP server is stateless; send JSON-RPC messages by POST', {
            allow: 'POST',
          }),
        );
      const declared = Number(request.headers.get('content-length') ?? 0);
      if (declared > MCP_LIMITS.maxBodyBytes)
        return endResponse(rpcError(413, -32000, `Payload Too Large: at most ${MCP_LIMITS.maxBodyBytes} bytes`));
      return serve(request, url).then(endResponse, (err: unknown) => {
        opts.logger.error({ err }, 'mcp request failed');
        endResponse(rpcError(500, -32603, 'Internal error'));
      });
    },
  };
}
