import { complexityFromQuery } from '@pothos/plugin-complexity';
import { type DocumentNode, type ExecutionArgs, type GraphQLSchema, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import { complexityBudget } from './complexity-budget.js';
import { GRAPHQL_LIMITS } from '../../limits.js';

/** The operation `execute` will run, with the document's fragments (Pothos scores the first operation). */
function selectedOperation(document: DocumentNode, operationName: string | null | undefined): DocumentNode {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const chosen = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  return { ...document, definitions: chosen ? [chosen, ...fragments] : fragments };
}

function overLimit(
  score: { complexity: number; depth: number; breadth: number },
  schema: GraphQLSchema,
): AppError | undefined {
  const limits = { ...GRAPHQL_LIMITS, complexity: complexityBudget(schema) };
  for (const key of ['depth', 'breadth', 'complexity'] as const) {
    if (score[key] > limits[key])
      return new AppError('QUERY_TOO_COMPLEX', `Query ${key} ${score[key]} exceeds the limit of ${limits[key]}`);
  }
  return undefined;
}

type Score = ReturnType<typeof complexityFromQuery>;

/** Bounds of the score cache: variable sets kept per document, and the longest key kept. */
const CACHE = { perDocument: 20, keyChars: 512 } as const;

/** Scores per parsed document (Yoga reuses the document of a repeated query), then operation and variables. */
const scores = new WeakMap<DocumentNode, Map<string, Score>>();

function scoreOf(args: ExecutionArgs): Score {
  const variables = args.variableValues ?? {};
  const score = () =>
    complexityFromQuery(selectedOperation(args.document, args.operationName), {
      schema: args.schema,
      variables,
      ctx: args.contextValue as object,
    });
  const key = `${args.operationName ?? ''}\u0000${JSON.stringify(variables)}`;
  if (key.length > CACHE.keyChars) return score();
  let byKey = scores.get(args.document);
  if (!byKey) scores.set(args.document, (byKey = new Map()));
  let cached = byKey.get(key);
  if (!cached) {
    if (byKey.size >= CACHE.perDocument) byKey.clear();
    byKey.set(key, (cached = score()));
  }
  return cached;
}

/**
 * Scores each operation with the schema's Pothos complexity (variables included) before it
 * executes, and refuses one over {@link GRAPHQL_LIMITS} or {@link complexityBudget} with QUERY_TOO_COMPLEX: no resolver runs,
 * so a refused operation spends no rate-limit token.
 */
export function useComplexityLimit(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      let error: AppError | undefined;
      try {
        error = overLimit(scoreOf(args), args.schema);
      } catch {
        return;
      }
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
