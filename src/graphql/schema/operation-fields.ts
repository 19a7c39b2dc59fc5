import type { ObjectRef } from '@pothos/core';
import { declOf, type ParamRef } from '../../contract/params.js';
import type { ConnectionField, ListField, Operation } from '../../operations/operation.js';
import type { builder } from '../builder.js';
import { type ArgBuilder, graphqlArgs, withArgs } from './args.js';

/**
 * The declared GraphQL connection of an operation, its parameters in the order of its arguments
 * (`argOrder`, else the parameters').
 * @throws Error when the operation is not declared a connection, or `argOrder` does not name each argument once
 */
export function connectionOf<P extends readonly ParamRef[]>(
  op: Operation<P, any>,
): ConnectionField & { readonly params: P } {
  const g = op.graphql;
  if (g.kind !== 'connection') throw new Error(`${op.path}: not a GraphQL connection`);
  if (!g.argOrder) return { ...g, params: op.params };
  const named = op.params.filter((ref) => declOf(ref).graphql !== undefined);
  const ordered = g.argOrder.map((name) => named.find((ref) => declOf(ref).graphql === name));
  if (ordered.length !== named.length || new Set(ordered).size !== named.length || ordered.includes(undefined)) {
    throw new Error(`${op.path}: argOrder must name each GraphQL argument once`);
  }
  return { ...g, params: ordered as readonly ParamRef[] as P };
}

/**
 * The declared GraphQL list field of an operation: objects of `type`, its arguments from the
 * operation's parameters, the objects from its `items`.
 */
export function listField<P extends readonly ParamRef[]>(
  t: { field: Parameters<Parameters<typeof builder.queryFields>[0]>[0]['field']; arg: ArgBuilder },
  op: Operation<P, any>,
  type: ObjectRef<any, any>,
) {
  const g = op.graphql;
  if (g.kind !== 'list') throw new Error(`${op.path}: not a GraphQL list field`);
  const items = (g as ListField<P>).items;
  return t.field({
    type: [type],
    description: g.description,
    args: graphqlArgs(t.arg, op.params),
    resolve: (_root, args, ctx) => withArgs(op.params, args, async (input) => [...(await items(ctx.deps, input))]),
  });
}
