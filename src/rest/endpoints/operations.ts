import type { Operation } from '../../operations/operation.js';
import { type Endpoint, rowsEndpoint } from '../endpoint.js';

const endpoints = new WeakMap<Operation, Endpoint>();

/** The REST endpoint (and so the OpenAPI operation and MCP tool) of a declared operation, made once per operation. */
export function operationEndpoint(op: Operation): Endpoint {
  let endpoint = endpoints.get(op);
  if (!endpoint) {
    const { graphql: _graphql, ...spec } = op;
    endpoint = rowsEndpoint(spec);
    endpoints.set(op, endpoint);
  }
  return endpoint;
}
