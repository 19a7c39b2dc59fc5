import type { ObjectRef } from '@pothos/core';
import { graphqlMetaFields, type MetaDecl, type MetaField, type SourceOf } from '../../contract/meta.js';
import { builder } from '../builder.js';
import { enumRefOf } from './args.js';
import type { FieldBuilder } from '../rows/object-type.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The GraphQL type of a meta field's value: a declared enum, [String!], DateTime, String or Int. */
function graphqlTypeOf(f: MetaField<unknown> & { graphql: string }) {
  switch (f.kind) {
    case 'enum':
      return enumRefOf(f.values);
    case 'strings':
      return ['String'];
    case 'naiveUtc':
      return 'DateTime';
    case 'string':
      return 'String';
    case 'int':
      return 'Int';
    case 'object':
      throw new Error(`meta field ${f.graphql}: an object field is REST only`);
  }
}

/** A GraphQL meta field: nullable where the value may be absent (REST null or omitted alike), else non-null. */
function metaField<S>(t: FieldBuilder<S>, f: MetaField<S> & { graphql: string }) {
  const get = f.get as (source: S) => unknown;
  return t.field({
    type: graphqlTypeOf(f as MetaField<unknown> & { graphql: string }) as 'String',
    nullable: (f.absent !== undefined) as false,
    description: f.graphqlDescription ?? f.description,
    resolve: (source: S) => (get(source) ?? null) as string,
  });
}

/**
 * The GraphQL fields of meta `fields`, in declaration order, each resolved by its getter (`t`, a
 * field builder of any schema builder whose enums of the fields come from `enumType` and which has a DateTime scalar).
 */
export function metaFields<S>(t: FieldBuilder<S>, fields: readonly MetaField<S>[]) {
  return Object.fromEntries(graphqlMetaFields(fields).map((f) => [f.graphql, metaField(t, f)]));
}

/** The GraphQL object type of a meta declaration: its GraphQL fields, each resolved by its getter. */
export function metaObjectType<const D extends MetaDecl<any>>(decl: D): ObjectRef<Types, SourceOf<D>> {
  return builder.objectRef<SourceOf<D>>(decl.graphql).implement({
    description: decl.description,
    fields: (t) => metaFields(t, decl.fields),
  });
}
