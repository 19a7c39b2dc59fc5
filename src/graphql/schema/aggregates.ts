import type { ObjectRef } from '@pothos/core';
import type { Meta } from '../../services/meta.js';
import { builder } from '../builder.js';
import { enumType, graphqlArgs, withArgs } from './args.js';
import { PRICE_BASIS } from '../../contract/enums.js';
import { MetaRef } from './common.js';
import { rowObjectType } from '../rows/object-type.js';
import type { RowTimeZone } from '../../contract/json.js';
import { inTimeZone } from '../rows/zoned.js';
import { allRows, type Rows } from '../../domain/row-batches.js';
import { OPERATIONS } from '../../operations/index.js';
import type { Operation } from '../../operations/operation.js';

/** A service result as GraphQL parent: rows tagged with their time zone under `timeZone`. */
async function zoned<R>(
  result: Promise<{ meta: Meta; rows: Rows<R>; rowTimeZone?: RowTimeZone<R> }>,
): Promise<{ meta: Meta; rows: R[] }> {
  const { meta, rows, rowTimeZone } = await result;
  return { meta, rows: inTimeZone([...(await allRows(rows))], rowTimeZone) };
}

/** A `{ meta, rows }` result type named `name` around a row type. */
function resultType<R>(name: string, description: string, row: ObjectRef<any, R>) {
  return builder.objectRef<{ meta: Meta; rows: R[] }>(name).implement({
    description,
    fields: (t) => ({
      meta: t.field({
        type: MetaRef,
        description: 'Provenance, sources, resolved range and resolution.',
        resolve: (r) => r.meta,
      }),
      rows: t.field({ type: [row], description: 'The rows, ordered as REST orders them.', resolve: (r) => r.rows }),
    }),
  });
}

/** What the price KPIs are statistics of: hourly means (default) or the published periods. */
export const PriceBasisEnum = enumType(PRICE_BASIS);

/** The row object type of each declared operation, made in declaration order (the schema's type order). */
const rowTypes = new Map(OPERATIONS.map((op) => [op, rowObjectType(op.contract)]));

function rowTypeOf(op: Operation): ObjectRef<any, any> {
  let ref = rowTypes.get(op);
  if (!ref) {
    ref = rowObjectType(op.contract);
    rowTypes.set(op, ref);
  }
  return ref;
}

/** Adds the GraphQL query field of each declared operation: its arguments, description and service from the declaration. */
export function addOperationFields(ops: readonly Operation[]): void {
  builder.queryFields((t) =>
    Object.fromEntries(
      ops.map((op) => [
        op.graphql.field,
        t.field({
          description: op.graphql.description,
          type: resultType(op.graphql.result.name, op.graphql.result.description, rowTypeOf(op)),
          args: graphqlArgs(t.arg, op.params),
          resolve: (_r, a, ctx) =>
            withArgs(op.params, a, (input) =>
              zoned(op.rows(ctx.deps, op.graphql.anyRange ? { ...input, anyRange: true } : input)),
            ),
        }),
      ]),
    ),
  );
}

addOperationFields(OPERATIONS);
