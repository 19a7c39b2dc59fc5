/**
 * The server while it starts: it listens at once, before the database is ready (the demo data
 * loads on a first start), and answers `/healthz` 200, `/readyz` 503 with what is being done, and
 * every other path 503 with `Retry-After`, until the app takes over every later request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json } from './errors.js';
import { HEALTH_PATH, READY_PATH, routePath } from './paths.js';

/** Seconds a client is told to wait (`Retry-After`) before retrying while the server starts. */
export const STARTING_RETRY_AFTER_S = 5;

/** A Node.js request handler (graphql-yoga's server adapter is one). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** The answer to a request for `pathname` while the server starts, doing `detail`. */
export function startingResponse(pathname: string, detail: string): Response {
  const path = routePath(pathname);
  if (path === HEALTH_PATH) return json({ status: 'ok' });
  const headers = { 'retry-after': String(STARTING_RETRY_AFTER_S), 'cache-control': 'no-store' };
  if (path === READY_PATH) return json({ status: 'starting', detail }, 503, headers);
  return json({ detail: `The service is starting (${detail}); retry shortly` }, 503, headers);
}

/** The server's request handler during start-up, then the app's. */
export interface StartupGate {
  /** The handler to give `http.createServer`. */
  readonly handler: RequestHandler;
  /** What the server is doing now (`/readyz` detail). */
  detail(): string;
  /** Says what the server is doing now, e.g. `loading demo data: 2025-11 (3/15 months)`. */
  setDetail(detail: string): void;
  /** Hands every later request to `app`. */
  open(app: RequestHandler): void;
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  req.resume();
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
}

/** A gate that answers {@link startingResponse} until it is opened; `detail` is the first thing done. */
export function startupGate(detail: string): StartupGate {
  let current = detail;
  let app: RequestHandler | undefined;
  return {
    handler(req, res) {
      if (app) return app(req, res);
      return send(req, res, startingResponse((req.url ?? '/').split('?')[0] as string, current));
    },
    detail: () => current,
    setDetail(next) {
      current = next;
    },
    open(next) {
      app = next;
    },
  };
}
