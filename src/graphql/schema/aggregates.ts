import type { ObjectRef } from '@pothos/core';
import type { Meta } from '../../services/meta.js';
import { builder } from '../builder.js';
import { graphqlArgs, withArgs } from './args.js';
import { MetaRef } from './common.js';
import { rowObjectType } from '../rows/object-type.js';
import type { RowTimeZone } from '../../contract/json.js';
import { inTimeZone } from '../rows/zoned.js';
import { allRows, type Rows } from '../../domain/row-batches.js';
import { OPERATIONS } from '../../operations/index.js';
import type { Operation, RowsField } from '../../operations/operation.js';

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

/** An operation whose GraphQL field returns `{ meta, rows }` (the others are connections and lists: prices.ts, flows.ts, zones.ts). */
type RowsOperation = Operation & { readonly graphql: RowsField };
const isRows = (op: Operation): op is RowsOperation => op.graphql.kind === 'rows';

/** The declared operations with a `{ meta, rows }` field. */
const ROWS_OPERATIONS = OPERATIONS.filter(isRows);

/** The row object type of each of them, made in declaration order (the schema's type order). */
const rowTypes = new Map(ROWS_OPERATIONS.map((op) => [op, rowObjectType(op.contract)]));

function rowTypeOf(op: RowsOperation): ObjectRef<any, any> {
  let ref = rowTypes.get(op);
  if (!ref) {
    ref = rowObjectType(op.contract);
    rowTypes.set(op, ref);
  }
  return ref;
}

/**
 * Adds the `{ meta, rows }` GraphQL query field of each declared operation: its arguments, description and
 * service from the declaration.
 * @throws Error for an operation declared with another GraphQL kind
 */
export function addOperationFields(ops: readonly Operation[]): void {
  const rowsOps = ops.map((op) => {
    if (!isRows(op)) throw new Error(`${op.path}: its GraphQL field is a ${op.graphql.kind}, not { meta, rows }`);
    return op;
  });
  builder.queryFields((t) =>
    Object.fromEntries(
      rowsOps.map((op) => [
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

addOperationFields(ROWS_OPERATIONS);
