import type { InputOf, ParamRef } from '../contract/params.js';
import type { RowsEndpointSpec } from '../rest/endpoint.js';
import type { ServiceDeps } from '../services/context.js';

/** What every GraphQL query field of an operation declares: its name and description. */
interface FieldBase {
  /** The query field's name (`flowTypeSummary`). */
  readonly field: string;
  readonly description: string;
}

/** A query field returning `{ meta, rows }`: the rows of the operation's service, as REST answers them. */
export interface RowsField extends FieldBase {
  readonly kind: 'rows';
  /** The result object type's name and description. */
  readonly result: { readonly name: string; readonly description: string };
  /** Resolutions without the REST range cap (the GraphQL cost limit bounds the work instead). */
  readonly anyRange?: boolean;
}

/**
 * A Relay connection field paged by keyset (first/after): the rows of the operation's contract as
 * edges. How its cursor is made, which keyset read pages it and what the connection adds (totalCount,
 * meta) is GraphQL-only and given where the field is added (graphql/schema/prices.ts, flows.ts).
 */
export interface ConnectionField extends FieldBase {
  readonly kind: 'connection';
  /** The connection type's name and description. */
  readonly connection: { readonly name: string; readonly description: string };
  /** At most this many rows a page (`first`). */
  readonly maxPage: number;
  /**
   * The arguments' order when it is not the parameters' order, by GraphQL name (each argument of the
   * parameters exactly once; checked where the field is added).
   */
  readonly argOrder?: readonly string[];
}

/**
 * A list field of an object type whose fields resolve on their own (`Zone`, `Border`, given where
 * the field is added, graphql/schema/zones.ts): `items` gives the selected objects, without the REST
 * rows' coverage.
 */
export interface ListField<P extends readonly ParamRef[] = readonly ParamRef[]> extends FieldBase {
  readonly kind: 'list';
  readonly items: (deps: ServiceDeps, input: InputOf<P>) => Promise<readonly unknown[]>;
}

/** How an operation is shown as a GraphQL query field. */
export type GraphqlField<P extends readonly ParamRef[] = readonly ParamRef[]> =
  | RowsField
  | ConnectionField
  | ListField<P>;

/**
 * One operation, declared once: its parameters (with each surface's own note), row contract,
 * service, cache tags and the texts of each surface. The REST endpoint, its OpenAPI operation
 * and MCP tool (rest/endpoints/index.ts) and the GraphQL field (graphql/schema/: aggregates.ts for
 * `rows`, prices.ts and flows.ts for `connection`, zones.ts for `list`) are derived from it.
 */
export interface Operation<P extends readonly ParamRef[] = readonly ParamRef[], R = any>
  extends RowsEndpointSpec<P, R> {
  readonly graphql: GraphqlField<P>;
}

/** Declares an operation (the identity, typing the service input by the parameters). */
export function defineOperation<const P extends readonly ParamRef[], R>(op: Operation<P, R>): Operation<P, R> {
  return op;
}
