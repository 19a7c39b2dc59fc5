import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { databaseAppError } from '../db/errors.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';

/**
 * Yoga's `maskError`: client errors (AppError, GraphQL errors of parsing, validation and variable
 * coercion) pass unchanged, database failures become their coded AppError, anything else is logged
 * with an id and answered as INTERNAL_SERVER_ERROR, marked `unexpected` (not shown to clients) so
 * that a response without `data` gets HTTP 500, never a 2xx or 4xx.
 */
export function maskError(logger: Logger) {
  return (error: unknown): Error => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof AppError) return error as Error;
    if (error instanceof GraphQLError && !original) return error;
    const mapped = databaseAppError(original);
    if (mapped) return mapped;
    const errorId = randomUUID();
    logger.error({ err: original, errorId }, 'unhandled GraphQL error');
    const where = error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {};
    return new GraphQLError('Internal Server Error', {
      ...where,
      extensions: { code: 'INTERNAL_SERVER_ERROR', errorId, unexpected: true },
    });
  };
}
