import { AppError, ERROR_STATUS } from '../errors.js';
import type { Logger } from '../logger.js';
import { json } from './errors.js';

const logged = new WeakSet<Request>();

/** Whether a request's work failed because its client went away (its signal aborted), whatever the error it failed with. */
export function isClientGone(request: Request | undefined, _err?: unknown): boolean {
  return request?.signal?.aborted === true;
}

/**
 * Logs a request whose client left before its answer was ready: once per request, at info level,
 * as `client closed`, with the method and path (never the query string) and no error or stack.
 */
export function logClientClosed(request: Request, logger: Logger): void {
  if (logged.has(request)) return;
  logged.add(request);
  const path = new URL(request.url, 'http://localhost').pathname.slice(0, 200);
  logger.info({ method: request.method, path }, 'client closed');
}

/** The error an operation whose client left ends with (status 499, counted apart from 5xx). */
export function clientClosedError(): AppError {
  return new AppError('CLIENT_CLOSED', 'The client closed the request before its answer was ready');
}

/** The REST answer to a request whose client left (never read by it): 499, logged once as `client closed`. */
export function clientClosedResponse(request: Request, logger: Logger): Response {
  logClientClosed(request, logger);
  return json({ detail: 'Client Closed Request' }, ERROR_STATUS.CLIENT_CLOSED);
}
