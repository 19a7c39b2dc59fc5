import type { Field, RowContract } from '../../contract/fields.js';
import { graphqlFields } from '../../contract/fields.js';
import { builder } from '../builder.js';
import { zonedDay, zonedInstant, zonedYear } from './zoned.js';
import { type EnumRefs, type FieldBuilder, type RowRef, scalarField } from './object-type.js';

/** A row as a GraphQL parent: its scalar values are properties named by the GraphQL fields. */
export interface RowView<R> {
  readonly row: R;
}

/** Field kinds a view carries as properties (leaf values computed from the row on read). */
const LEAF_KINDS = new Set<Field<unknown>['kind']>([
  'string',
  'int',
  'float',
  'boolean',
  'enum',
  'datetime',
  'day',
  'year',
]);

/** How GraphQL writes the instant of a field kind: under the row's time zone, else UTC. */
const ZONED: Partial<Record<Field<unknown>['kind'], (d: Date, row: unknown) => unknown>> = {
  datetime: zonedInstant,
  day: zonedDay,
  year: zonedYear,
};

/** The leaf value of a field as GraphQL writes it: instants, days and years under the row's time zone. */
function leafValue<R>(f: Field<R>): (row: R) => unknown {
  const zoned = ZONED[f.kind];
  if (!zoned) return f.value;
  return (row) => {
    const d = f.value(row) as Date | null;
    return d === null ? null : zoned(d, row);
  };
}

/** A view class of a contract: a getter per leaf field, read by GraphQL as a plain property. */
function viewClass<R>(contract: RowContract<R>): new (row: R) => RowView<R> {
  const View = class implements RowView<R> {
    constructor(readonly row: R) {}
  };
  for (const f of graphqlFields(contract)) {
    if (!LEAF_KINDS.has(f.kind)) continue;
    const value = leafValue(f);
    Object.defineProperty(View.prototype, f.graphql, {
      get(this: RowView<R>) {
        return value(this.row);
      },
    });
  }
  return View;
}

/** The leaf field `f` of a view: a property of the parent (no resolver, so no resolve info per row). */
function leafField<R>(t: FieldBuilder<RowView<R>>, f: Field<R>, enums: EnumRefs) {
  const type =
    f.kind === 'datetime'
      ? 'DateTime'
      : f.kind === 'enum' && f.graphqlEnum !== undefined
        ? enums[f.graphqlEnum]
        : SCALAR[f.kind];
  if (type === undefined) throw new Error(`no GraphQL type for ${f.graphql}`);
  const value = leafValue(f);
  return t.field({
    description: f.description,
    type: type as 'String',
    nullable: f.nullable === true,
    extensions: { pothosExposedField: f.graphql },
    resolve: (v) => value(v.row) as string,
  });
}

const SCALAR: Partial<Record<Field<unknown>['kind'], 'String' | 'Int' | 'Float' | 'Boolean'>> = {
  string: 'String',
  day: 'String',
  enum: 'String',
  int: 'Int',
  year: 'Int',
  float: 'Float',
  boolean: 'Boolean',
};

/**
 * The GraphQL object type of rows of a contract, served through views ({@link RowView}): the same
 * fields and values as `rowObjectType`, but leaf fields are properties of the parent, so
 * graphql-jit reads them inline instead of calling a resolver with a resolve info per field and
 * row (a 20,000-row page has 200,000 leaves). Other fields resolve from the view's row.
 */
export function rowViewType<R>(
  contract: RowContract<R>,
  enums: EnumRefs = {},
): { ref: RowRef<RowView<R>>; view: (row: R) => RowView<R> } {
  const View = viewClass(contract);
  const ref = builder.objectRef<RowView<R>>(contract.graphql).implement({
    description: contract.description,
    fields: (t) =>
      Object.fromEntries(
        graphqlFields(contract).map((f) => [
          f.graphql,
          LEAF_KINDS.has(f.kind)
            ? leafField(t, f, enums)
            : scalarField(t, { ...f, value: (v: RowView<R>) => f.value(v.row) } as Field<RowView<R>>, enums),
        ]),
      ),
  });
  return { ref, view: (row) => new View(row) };
}
