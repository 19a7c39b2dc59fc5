import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { databaseAppError } from '../db/errors.js';
import { AppError, ERROR_STATUS, InputError } from '../errors.js';
import type { Logger } from '../logger.js';
import { routePath } from './paths.js';

/** JSON response helper; bodies are always JSON. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * Maps an error to an HTTP response: InputError 422 FastAPI-style, other AppErrors by code with
 * `{"detail": message}`, anything else 500 with an error id (logged, never the stack or SQL).
 */
export function errorResponse(err: unknown, logger: Logger): Response {
  if (err instanceof InputError) {
    const detail = err.issues.map((i) => ({
      loc: ['query', i.param],
      msg: i.msg,
      type: i.type,
      ...(i.input !== undefined ? { input: i.input } : {}),
    }));
    return json({ detail }, 422);
  }
  if (err instanceof AppError) return json({ detail: err.message }, ERROR_STATUS[err.code]);
  const mapped = databaseAppError(err);
  if (mapped) {
    logger.warn({ code: mapped.code }, mapped.message);
    return json({ detail: mapped.message }, ERROR_STATUS[mapped.code]);
  }
  const errorId = randomUUID();
  logger.error({ err, errorId }, 'unhandled error');
  return json({ detail: 'Internal Server Error', error_id: errorId }, 500);
}

/**
 * Answers `{"detail": "Not Found"}` (404) for every path no earlier plugin served and that is not
 * the GraphQL endpoint, instead of Yoga's empty 404. Install it after the routes.
 */
export function notFoundPlugin(graphqlEndpoint: string): Plugin {
  return {
    onRequest({ url, endResponse }) {
      if (routePath(url.pathname) !== graphqlEndpoint) endResponse(json({ detail: 'Not Found' }, 404));
    },
  };
}
