import { z } from 'zod';
import { formatUtcNaive } from '../domain/time.js';
import { enumValues } from './enums.js';
import { type MetaDecl, type MetaField, restMetaFields, type SourceOf, type WireOf } from './meta.js';

function baseSchema(f: MetaField<unknown>): z.ZodType {
  switch (f.kind) {
    case 'enum':
      return z.enum(enumValues(f.values));
    case 'strings':
      return z.array(z.string());
    case 'naiveUtc':
    case 'string':
      return z.string();
    case 'int':
      return z.int();
    case 'object':
      return z.object(shapeOf(f.fields));
  }
}

function fieldSchema(f: MetaField<unknown>): z.ZodType {
  const base = baseSchema(f);
  const schema = f.absent === 'null' ? base.nullable() : f.absent === 'omitted' ? base.optional() : base;
  if (f.description === undefined) return schema;
  return schema.meta({ description: f.description, ...(f.example === undefined ? {} : { example: f.example }) });
}

const shapeOf = (fields: readonly MetaField<unknown>[]): Record<string, z.ZodType> =>
  Object.fromEntries(restMetaFields(fields).map((f) => [f.rest, fieldSchema(f)]));

/**
 * The REST schema of a meta declaration, and so its OpenAPI component: exactly its REST fields, in
 * order; absent values null, or optional where `omitted`.
 */
export function metaSchema<const D extends MetaDecl<any>>(decl: D): z.ZodType<WireOf<D['fields']>> {
  return z.object(shapeOf(decl.fields)).strict().meta({ id: decl.rest }) as unknown as z.ZodType<WireOf<D['fields']>>;
}

type Writer<S> = (source: S) => Record<string, unknown>;

function valueWriter(f: MetaField<unknown>): (value: unknown) => unknown {
  switch (f.kind) {
    case 'naiveUtc':
      return (d) => formatUtcNaive(d as Date);
    case 'object':
      return writerOf(f.fields);
    default:
      return (v) => v;
  }
}

function writerOf<S>(fields: readonly MetaField<S>[]): Writer<S> {
  const parts = restMetaFields(fields).map((f) => ({
    name: f.rest,
    get: f.get as (s: S) => unknown,
    omit: f.absent === 'omitted',
    write: valueWriter(f as MetaField<unknown>),
  }));
  return (source) => {
    const wire: Record<string, unknown> = {};
    for (const p of parts) {
      const v = p.get(source);
      if (v !== null && v !== undefined) wire[p.name] = p.write(v);
      else if (!p.omit) wire[p.name] = null;
    }
    return wire;
  };
}

/**
 * The REST JSON meta of a meta declaration: its REST fields in order, instants as UTC text without
 * offset, absent values null, or left out where `omitted`.
 */
export function metaWriter<const D extends MetaDecl<any>>(decl: D): (meta: SourceOf<D>) => WireOf<D['fields']> {
  return writerOf(decl.fields) as (meta: SourceOf<D>) => WireOf<D['fields']>;
}
