import { type Field, graphqlFields, type RowContract } from '../../contract/fields.js';
import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { timeZoneOfRow, withRowTimeZone, zonedDay, zonedInstant, zonedYear } from './zoned.js';
import { ZoneRef } from './zones.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
/** Pothos field builder of parents of type `R`. */
export type FieldBuilder<R> = PothosSchemaTypes.ObjectFieldBuilder<Types, R>;

/** GraphQL enum types by name, for the enum fields of a contract. */
export type EnumRefs = Readonly<Record<string, Parameters<FieldBuilder<unknown>['field']>[0]['type']>>;

/** A value GraphQL declares non-null: a null here is a broken row, reported as a field error. */
function required<R, T>(f: Field<R>, value: (row: R) => T | null): (row: R) => T {
  return (row) => {
    const v = value(row);
    if (v === null) throw new Error(`null in non-null field ${f.graphql}`);
    return v;
  };
}

/** The GraphQL field of a contract field, resolved from the row by the field's getter. */
export function scalarField<R>(t: FieldBuilder<R>, f: Field<R>, enums: EnumRefs) {
  const doc = { description: f.description };
  switch (f.kind) {
    case 'string':
      return f.nullable
        ? t.string({ ...doc, nullable: true, resolve: f.value })
        : t.string({ ...doc, resolve: required(f, f.value) });
    case 'int':
      return f.nullable
        ? t.int({ ...doc, nullable: true, resolve: f.value })
        : t.int({ ...doc, resolve: required(f, f.value) });
    case 'float':
      return f.nullable
        ? t.float({ ...doc, nullable: true, resolve: f.value })
        : t.float({ ...doc, resolve: required(f, f.value) });
    case 'boolean':
      return f.nullable
        ? t.boolean({ ...doc, nullable: true, resolve: f.value })
        : t.boolean({ ...doc, resolve: required(f, f.value) });
    case 'datetime': {
      const value = f.value as (row: R) => Date | null;
      const instant = (row: R) => {
        const d = value(row);
        return d === null ? null : zonedInstant(d, row);
      };
      return f.nullable
        ? t.field({ ...doc, type: 'DateTime', nullable: true, resolve: instant })
        : t.field({ ...doc, type: 'DateTime', resolve: required(f, instant) });
    }
    case 'day': {
      const day = required(f, f.value);
      return t.string({ ...doc, resolve: (row) => zonedDay(day(row), row) });
    }
    case 'year': {
      const value = required(f, f.value);
      return t.int({ ...doc, resolve: (row) => zonedYear(value(row), row) });
    }
    case 'zone':
      return t.field({ ...doc, type: ZoneRef, resolve: required(f, f.value) });
    case 'enum': {
      const type = f.graphqlEnum === undefined ? undefined : enums[f.graphqlEnum];
      if (f.graphqlEnum !== undefined && type === undefined)
        throw new Error(`enum ${f.graphqlEnum} of ${f.graphql} not given`);
      return type
        ? t.field({ ...doc, type, resolve: required(f, f.value) })
        : t.string({ ...doc, resolve: required(f, f.value) });
    }
    case 'strings':
      return t.stringList({ ...doc, resolve: required(f, (row) => f.value(row) as string[] | null) });
    case 'object': {
      const type: RowRef<object> = rowObjectType<object>(f.contract, enums);
      const nested = (row: R) => withRowTimeZone(f.value(row), timeZoneOfRow(row));
      return f.nullable
        ? t.field({ ...doc, type, nullable: true, resolve: nested })
        : t.field({ ...doc, type, resolve: required(f, nested) });
    }
  }
}

/** The GraphQL object type of rows of type `R`. */
export type RowRef<R> = ObjectRef<Types, R>;

const objectTypes = new Map<RowContract<unknown>, RowRef<unknown>>();

function implement<R>(contract: RowContract<R>, enums: EnumRefs): RowRef<R> {
  return builder.objectRef<R>(contract.graphql).implement({
    description: contract.description,
    fields: (t) => Object.fromEntries(graphqlFields(contract).map((f) => [f.graphql, scalarField(t, f, enums)])),
  });
}

/**
 * The GraphQL object type of a row contract: its GraphQL fields in contract order, values as REST
 * writes them. One type per contract, however often it is asked for (nested rows share theirs).
 */
export function rowObjectType<R>(contract: RowContract<R>, enums: EnumRefs = {}): RowRef<R> {
  const known = objectTypes.get(contract as RowContract<unknown>);
  if (known) return known as RowRef<R>;
  const type = implement(contract, enums);
  objectTypes.set(contract as RowContract<unknown>, type as RowRef<unknown>);
  return type;
}
