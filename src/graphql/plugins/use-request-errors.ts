import { type ASTVisitor, type ExecutionResult, GraphQLError, type ValidationContext } from 'graphql';
import { createGraphQLError, isPromise, type Plugin } from 'graphql-yoga';

/**
 * Validation rule: an operation whose type (mutation, subscription) has no root type in the schema
 * is invalid, as graphql-js 17 specifies (`KnownOperationTypesRule`), instead of failing in the executor.
 */
export function KnownOperationTypesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      if (!schema.getRootType(node.operation)) {
        context.reportError(
          new GraphQLError(`The ${node.operation} operation is not supported by the schema.`, { nodes: node }),
        );
      }
    },
  };
}

/** Whether an error of a request parser carries no HTTP status (Yoga's multipart parser's: `operations` not JSON). */
function withoutStatus(err: unknown): err is GraphQLError {
  return err instanceof GraphQLError && !(err.extensions as { http?: { status?: number } }).http?.status;
}

function badParameters(err: unknown): never {
  const extensions = { code: 'BAD_REQUEST', http: { status: 400 } };
  if (withoutStatus(err)) throw createGraphQLError(err.message, { extensions });
  if (!(err instanceof SyntaxError)) throw err;
  throw createGraphQLError(`The variables or extensions parameter is not valid JSON: ${err.message}`, { extensions });
}

function isClientError(error: GraphQLError): boolean {
  const extensions = error.extensions as { unexpected?: unknown } | undefined;
  return !extensions?.unexpected && (!error.originalError || error.originalError instanceof GraphQLError);
}

/** `error` with HTTP status 400, as a new error: graphql-jit defines its errors' extensions read-only. */
function withStatus400(error: GraphQLError): GraphQLError {
  const { nodes, source, positions, path, originalError } = error;
  const http = (error.extensions as { http?: object } | undefined)?.http;
  const copy = new GraphQLError(error.message, {
    nodes,
    source,
    positions,
    path,
    originalError,
    extensions: { ...error.extensions, http: { ...http, status: 400 } },
  });
  if (!copy.locations && error.locations)
    Object.defineProperty(copy, 'locations', { value: error.locations, enumerable: true });
  return copy;
}

function needsStatus(error: GraphQLError): boolean {
  const extensions = error.extensions as { http?: { status?: number }; unexpected?: unknown } | undefined;
  if (extensions?.http?.status || extensions?.unexpected) return false;
  return !error.originalError || error.originalError instanceof GraphQLError;
}

/** The result, its client errors given HTTP status 400 unless they carry one, when it has no `data`. */
function markRequestErrors(result: ExecutionResult): ExecutionResult {
  if ('data' in result || !result.errors?.some(needsStatus)) return result;
  return { ...result, errors: result.errors.map((e) => (needsStatus(e) ? withStatus400(e) : e)) };
}

/**
 * Answers requests that GraphQL cannot run with HTTP 4xx, as the GraphQL-over-HTTP spec asks when a
 * response has no `data`:
 * - an operation type the schema lacks fails validation ({@link KnownOperationTypesRule}, 400);
 * - `variables`/`extensions` that are not JSON (GET query string, form bodies), and any other
 *   request the parser refuses without a status (a multipart `operations` field that is not JSON),
 *   are 400 BAD_REQUEST;
 * - a result without `data` (an error raised before execution began: variable coercion, operation
 *   selection, a refused operation) is 400 unless its errors carry a status. Masked internal errors
 *   (`extensions.unexpected`) keep Yoga's 500.
 */
export function useRequestErrors(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser((request) => {
        try {
          const params = requestParser(request);
          return isPromise(params) ? params.catch(badParameters) : params;
        } catch (err) {
          return badParameters(err);
        }
      });
    },
    onValidate({ addValidationRule }) {
      addValidationRule(KnownOperationTypesRule);
    },
    onExecutionResult({ result, setResult }) {
      if (result && !(Symbol.asyncIterator in result)) setResult(markRequestErrors(result));
    },
  };
}
