import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { VARIABLE_LIMITS } from '../../limits.js';

/** Which bound a JSON value exceeds first, or null: one walk with an explicit stack, no recursion. */
export function exceededBound(
  root: unknown,
  limits: { depth: number; values: number } = VARIABLE_LIMITS,
): 'depth' | 'values' | null {
  const pending: [value: unknown, depth: number][] = [[root, 1]];
  let seen = 1;
  while (pending.length) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.depth) return 'depth';
    const children = Array.isArray(value) ? value : Object.values(value);
    seen += children.length;
    if (seen > limits.values) return 'values';
    for (const child of children) pending.push([child, depth + 1]);
  }
  return null;
}

function refuse(param: string, bound: 'depth' | 'values'): never {
  const what =
    bound === 'depth'
      ? `nest deeper than ${VARIABLE_LIMITS.depth} levels`
      : `hold more than ${VARIABLE_LIMITS.values} values`;
  throw createGraphQLError(`The ${param} ${what}`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
}

/**
 * Refuses a request whose `variables` or `extensions` exceed {@link VARIABLE_LIMITS} with 400
 * BAD_REQUEST, as soon as its parameters are read and before any other plugin walks them.
 */
export function useVariableLimits(): Plugin {
  return {
    onParams({ params }) {
      for (const param of ['variables', 'extensions'] as const) {
        const bound = exceededBound(params[param]);
        if (bound) refuse(param, bound);
      }
    },
  };
}
