import { type DocumentNode, GraphQLError, parse, type ParseOptions, type Source } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { PARSE_LIMITS } from '../../limits.js';

const OPEN = new Set(['{', '[', '(']);
const CLOSE = new Set(['}', ']', ')']);

/** Index just past the block string opening at `i` (`"""`), or the end of `source`. */
function skipBlockString(source: string, i: number): number {
  let j = i + 3;
  while (j < source.length) {
    if (source.startsWith('\\"""', j)) j += 4;
    else if (source.startsWith('"""', j)) return j + 3;
    else j += 1;
  }
  return j;
}

/** Index just past the string opening at `i` (`"`), or at the line end that leaves it unterminated. */
function skipString(source: string, i: number): number {
  let j = i + 1;
  while (j < source.length) {
    const c = source[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else if (c === '\n' || c === '\r') return j;
    else j += 1;
  }
  return j;
}

/** Index of the line end that closes the comment opening at `i` (`#`). */
function skipComment(source: string, i: number): number {
  let j = i + 1;
  while (j < source.length && source[j] !== '\n' && source[j] !== '\r') j += 1;
  return j;
}

/**
 * Whether brackets (`{`, `[`, `(`) outside strings and comments nest deeper than `limit` anywhere
 * in `source`: one linear scan, no recursion, stopping at the first level past the limit.
 */
export function nestsDeeperThan(source: string, limit: number): boolean {
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '#') i = skipComment(source, i);
    else if (c === '"') i = source.startsWith('"""', i) ? skipBlockString(source, i) : skipString(source, i);
    else {
      if (OPEN.has(c) && ++depth > limit) return true;
      if (CLOSE.has(c) && depth > 0) depth -= 1;
      i += 1;
    }
  }
  return false;
}

/**
 * graphql-js `parse` within {@link PARSE_LIMITS}: a document over either limit is refused with a
 * syntax error (which Yoga answers with HTTP 400 GRAPHQL_PARSE_FAILED) before the parser recurses.
 */
export function boundedParse(source: string | Source, options?: ParseOptions): DocumentNode {
  const text = typeof source === 'string' ? source : source.body;
  if (nestsDeeperThan(text, PARSE_LIMITS.nesting)) {
    throw new GraphQLError(`Syntax Error: Document nests deeper than ${PARSE_LIMITS.nesting} levels. Parsing aborted.`);
  }
  return parse(source, { ...options, maxTokens: PARSE_LIMITS.tokens });
}

/** Replaces Yoga's parser with {@link boundedParse} (parsed documents stay cached by Yoga). */
export function useParseLimits(): Plugin {
  return {
    onParse({ setParseFn }) {
      setParseFn(boundedParse);
    },
  };
}
