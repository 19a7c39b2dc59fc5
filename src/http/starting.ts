/**
 * The server while it starts: it listens at once, before the database is ready (the demo data
 * loads on a first start), and answers `/healthz` 200, `/readyz` 503 with what is being done, a
 * browser asking for the dashboard (`Accept: text/html`) a small 503 page naming the current step
 * that reloads itself, and every other request a JSON 503 with `Retry-After`, until the app takes
 * over every later request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json } from './errors.js';
import { DASHBOARD_PATH, HEALTH_PATH, READY_PATH, routePath } from './paths.js';

/** Seconds a client is told to wait (`Retry-After`) before retrying while the server starts. */
export const STARTING_RETRY_AFTER_S = 5;

/** Seconds between two reloads of the start-up page. */
export const STARTING_PAGE_REFRESH_S = 2;

/** Paths a browser opens the dashboard at: they get the start-up page. */
const PAGE_PATHS = new Set([DASHBOARD_PATH, '/index.html']);

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The start-up page: the current step, reloaded every {@link STARTING_PAGE_REFRESH_S} s until the dashboard answers. */
function startingPage(detail: string, headers: Record<string, string>): Response {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${STARTING_PAGE_REFRESH_S}"><title>Starting - European electricity market API</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:15vh auto;padding:0 1rem;color:#222}p.step{font-weight:600}</style>
</head><body><h1>The server is starting</h1>
<p class="step" id="step">${escapeHtml(detail)}</p>
<p>This page reloads itself every ${STARTING_PAGE_REFRESH_S} seconds and shows the dashboard once the server is ready (on a first start the demo data loads, which takes a little while).</p>
</body></html>
`;
  return new Response(body, {
    status: 503,
    headers: {
      ...headers,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

/** A Node.js request handler (graphql-yoga's server adapter is one). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * The answer to a request for `pathname` while the server starts, doing `detail`; `accept` is the
 * request's Accept header (a browser's names `text/html`).
 */
export function startingResponse(pathname: string, detail: string, accept = ''): Response {
  const path = routePath(pathname);
  if (path === HEALTH_PATH) return json({ status: 'ok' });
  const headers = { 'retry-after': String(STARTING_RETRY_AFTER_S), 'cache-control': 'no-store' };
  if (path === READY_PATH) return json({ status: 'starting', detail }, 503, headers);
  if (PAGE_PATHS.has(path) && /\btext\/html\b/i.test(accept)) return startingPage(detail, headers);
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
      return send(req, res, startingResponse((req.url ?? '/').split('?')[0] as string, current, req.headers?.accept));
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
