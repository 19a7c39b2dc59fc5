import { z } from 'zod';
import { enumValues } from '../contract/enums.js';
import { declOf, type NumberParam, type ParamDecl, type ParamRef, useOf } from '../contract/params.js';

/** The number schema of a bounded parameter: query text coerced, bounds and default applied. */
function numberSchema(p: NumberParam<string>) {
  const base = p.kind === 'int' ? z.coerce.number().int().min(p.min) : z.coerce.number().min(p.min);
  return (p.max === undefined ? base : base.max(p.max)).default(p.default);
}

/** The REST query schema of one declared parameter (without its documentation). */
function valueSchema(p: ParamDecl): z.ZodType {
  switch (p.kind) {
    case 'string':
      return z.string().optional();
    case 'strings':
      return z.array(z.string()).optional();
    case 'int':
    case 'float':
      return numberSchema(p);
    case 'enum':
      return p.default === undefined
        ? z.enum(enumValues(p.values)).optional()
        : z.enum(enumValues(p.values)).default(p.default);
    case 'enums':
      return z.array(z.enum(enumValues(p.values))).optional();
    case 'boolean':
      return z
        .enum(['true', 'false'])
        .default(p.default ? 'true' : 'false')
        .transform((v) => v === 'true');
  }
}

/** The schema of a parameter as an endpoint uses it, documented for OpenAPI. */
function paramSchema(ref: ParamRef): z.ZodType {
  const { param: p, rest } = useOf(ref);
  return valueSchema(p).meta({
    description: rest ?? p.description,
    ...(p.example === undefined ? {} : { example: p.example }),
  });
}

/**
 * The query schema of an endpoint: its parameters under their REST names, in the order given
 * (the order of OpenAPI's parameters and of a 422's entries); GraphQL-only parameters left out.
 */
export function restQuery(params: readonly ParamRef[]): z.ZodObject {
  return z.object(
    Object.fromEntries(
      params.flatMap((ref) => {
        const name = declOf(ref).rest;
        return name === undefined ? [] : [[name, paramSchema(ref)]];
      }),
    ),
  );
}
