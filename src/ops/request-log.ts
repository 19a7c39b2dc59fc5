import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import { accessOf } from '../security/client.js';
import { HEALTH_PATH, METRICS_PATH, READY_PATH, routePath } from '../http/paths.js';

/** Paths logged at debug level only (probes and scraping would drown the log). */
const QUIET_PATHS: ReadonlySet<string> = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);
const MAX_PATH_LENGTH = 200;

/** One request's log line. */
export interface RequestLogLine {
  readonly method: string;
  /** The path only: the query string is never logged (it may carry secrets). */
  readonly path: string;
  readonly status: number;
  /** Absent when an earlier plugin answered before this one saw the request (install it first). */
  readonly durationMs?: number;
  /** API key id (never the key), null without a key, absent when the access layer did not run. */
  readonly keyId?: number | null;
  /** Id of the error logged for a 500 or a masked GraphQL error, to find its details. */
  readonly errorId?: string;
}

interface Pending {
  readonly start?: number;
  errorId?: string;
}

function errorIdOf(result: ExecutionResult): string | undefined {
  for (const error of result.errors ?? []) {
    const id = error.extensions?.['errorId'];
    if (typeof id === 'string') return id;
  }
  return undefined;
}

async function errorIdOfBody(response: Response): Promise<string | undefined> {
  if (response.status < 500 || !(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  try {
    const body = (await response.clone().json()) as { error_id?: unknown };
    return typeof body.error_id === 'string' ? body.error_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One JSON log line per request, written when the response is ready: `{method, path, status,
 * durationMs, keyId, errorId}` (message `request`). No headers, no query string, no key.
 * Install it first among the plugins, so it times requests that other plugins answer early.
 */
export function requestLogPlugin(logger: Logger): Plugin {
  const pending = new WeakMap<Request, Pending>();
  return {
    onRequest({ request }) {
      pending.set(request, { start: performance.now() });
    },
    onResultProcess({ request, result }) {
      const state = pending.get(request);
      if (!state || state.errorId) return;
      for (const one of Array.isArray(result) ? result : [result]) {
        const id = Symbol.asyncIterator in one ? undefined : errorIdOf(one as ExecutionResult);
        if (id) state.errorId ??= id;
      }
    },
    async onResponse({ request, response }) {
      const state = pending.get(request) ?? {};
      const url = new URL(request.url, 'http://localhost');
      const errorId = state.errorId ?? (await errorIdOfBody(response));
      const access = accessOf(request);
      const line: RequestLogLine = {
        method: request.method,
        path: url.pathname.slice(0, MAX_PATH_LENGTH),
        status: response.status,
        ...(state.start !== undefined ? { durationMs: Math.round((performance.now() - state.start) * 10) / 10 } : {}),
        ...(access ? { keyId: access.client.keyId } : {}),
        ...(errorId ? { errorId } : {}),
      };
      if (QUIET_PATHS.has(routePath(url.pathname))) logger.debug(line, 'request');
      else logger.info(line, 'request');
    },
  };
}
