import type { ParamRef } from '../contract/params.js';
import type { RowsEndpointSpec } from '../rest/endpoint.js';

/** How an operation is shown as a GraphQL query field returning `{ meta, rows }`. */
export interface GraphqlField {
  /** The query field's name (`flowTypeSummary`). */
  readonly field: string;
  readonly description: string;
  /** The result object type's name and description. */
  readonly result: { readonly name: string; readonly description: string };
  /** Resolutions without the REST range cap (the GraphQL cost limit bounds the work instead). */
  readonly anyRange?: boolean;
}

/**
 * One operation, declared once: its parameters (with each surface's own note), row contract,
 * service, cache tags and the texts of each surface. The REST endpoint, its OpenAPI operation
 * and MCP tool (rest/endpoints/index.ts) and the GraphQL field (graphql/schema/aggregates.ts)
 * are derived from it.
 */
export interface Operation<P extends readonly ParamRef[] = readonly ParamRef[], R = any>
  extends RowsEndpointSpec<P, R> {
  readonly graphql: GraphqlField;
}

/** Declares an operation (the identity, typing the service input by the parameters). */
export function defineOperation<const P extends readonly ParamRef[], R>(op: Operation<P, R>): Operation<P, R> {
  return op;
}
