import { complexityFromQuery } from '@pothos/plugin-complexity';
import { type DocumentNode, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../errors.js';

/**
 * Limits on every GraphQL operation: complexity (1 per selected field, lists x10, connections x
 * `first`), depth of selections, and breadth (total selections, aliases included).
 */
export const GRAPHQL_LIMITS = { complexity: 250_000, depth: 10, breadth: 120 } as const;

/** The operation `execute` will run, with the document's fragments (Pothos scores the first operation). */
function selectedOperation(document: DocumentNode, operationName: string | null | undefined): DocumentNode {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const chosen = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  return { ...document, definitions: chosen ? [chosen, ...fragments] : fragments };
}

function overLimit(score: { complexity: number; depth: number; breadth: number }): AppError | undefined {
  for (const key of ['depth', 'breadth', 'complexity'] as const) {
    if (score[key] > GRAPHQL_LIMITS[key]) return new AppError('QUERY_TOO_COMPLEX', `Query ${key} ${score[key]} exceeds the limit of ${GRAPHQL_LIMITS[key]}`);
  }
  return undefined;
}

/**
 * Scores each operation with the schema's Pothos complexity (variables included) before it
 * executes, and refuses one over {@link GRAPHQL_LIMITS} with QUERY_TOO_COMPLEX: no resolver runs,
 * so a refused operation spends no rate-limit token.
 */
export function complexityLimitPlugin(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      let error: AppError | undefined;
      try {
        const document = selectedOperation(args.document, args.operationName);
        error = overLimit(complexityFromQuery(document, { schema: args.schema, variables: args.variableValues ?? {}, ctx: args.contextValue as object }));
      } catch {
        return;
      }
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
