import { z } from 'zod';
import { type Field, restFields, type RowContract } from './fields.js';

function baseSchema<R>(f: Field<R>): z.ZodType {
  switch (f.kind) {
    case 'string':
    case 'zone':
      return z.string();
    case 'int':
    case 'year':
      return z.int();
    case 'float':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'datetime':
      return z.string().meta({ format: 'date-time' });
    case 'day':
      return z.string().meta({ format: 'date' });
    case 'enum':
      return z.enum(f.values);
    case 'strings':
      return z.array(z.string());
    case 'object':
      return rowSchema(f.contract);
  }
}

function fieldSchema<R>(f: Field<R>): z.ZodType {
  const base = baseSchema(f);
  const meta = { description: f.description, ...(f.example === undefined ? {} : { example: f.example }) };
  return (f.nullable ? base.nullable() : base).meta(meta);
}

const schemas = new Map<RowContract<unknown>, z.ZodObject>();

/**
 * The REST row schema of a contract (and so its OpenAPI component): exactly its REST fields, in
 * order. One schema per contract, however often it is asked for (nested rows share their component).
 */
export function rowSchema<R>(contract: RowContract<R>): z.ZodObject {
  const known = schemas.get(contract as RowContract<unknown>);
  if (known) return known;
  const shape = Object.fromEntries(restFields(contract).map((f) => [f.rest, fieldSchema(f)]));
  const schema = z.object(shape).strict().meta({ id: contract.rest, description: contract.description });
  schemas.set(contract as RowContract<unknown>, schema);
  return schema;
}
