import type { Operation } from '../../operations/operation.js';
import { type Endpoint, rowsEndpoint } from '../endpoint.js';

/** The REST endpoint (and so the OpenAPI operation and MCP tool) of a declared operation. */
export function operationEndpoint(op: Operation): Endpoint {
  const { graphql: _graphql, ...spec } = op;
  return rowsEndpoint(spec);
}
