import type { ArgumentRef, EnumRef } from '@pothos/core';
import { z } from 'zod';
import type { EnumDecl } from '../../contract/enums.js';
import {
  type DeclIn,
  inputOf,
  type InputOf,
  namedOn,
  type NumberParam,
  type ParamDecl,
  type ParamRef,
  useOf,
  type ValueOf,
} from '../../contract/params.js';
import { builder, type GraphQLContext } from '../builder.js';
import { type PageArgs, pageLimits } from '../connection.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The `t.arg` builder of a query field. */
export type ArgBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg'];

const enumRefs = new Map<EnumDecl<string>, EnumRef<Types, string>>();

/**
 * The GraphQL enum type of a declared enum, made on first use: its values by GraphQL name, each
 * the REST spelling inside.
 */
export function enumType<V extends string>(e: EnumDecl<V>): EnumRef<Types, V> {
  const made = enumRefs.get(e);
  if (made) return made as EnumRef<Types, V>;
  const values = Object.fromEntries(
    Object.entries<{ graphql: string; description: string }>(e.values).map(([value, d]) => [
      d.graphql,
      { value, description: d.description },
    ]),
  );
  const ref = builder.enumType(e.graphql, {
    description: e.description,
    values: values as Record<string, { value: V; description: string }>,
  }) as EnumRef<Types, V>;
  enumRefs.set(e, ref as EnumRef<Types, string>);
  return ref;
}

/** A number's argument check: its declared bounds. */
function numberCheck(p: NumberParam<string>): z.ZodNumber {
  const base = p.kind === 'int' ? z.number().int().min(p.min) : z.number().min(p.min);
  return p.max === undefined ? base : base.max(p.max);
}

/** A number or switch with a default is non-null (the default applies when omitted); other arguments are nullable. */
type ArgValue<D> = D extends { kind: 'int' | 'float' | 'boolean' } ? ValueOf<D> : ValueOf<D> | null | undefined;

/** The arguments of a list of parameters: each GraphQL one under its GraphQL name. */
export type ArgsOf<P extends readonly ParamRef[]> = {
  [D in DeclIn<P[number]> as D extends { graphql: infer N extends string } ? N : never]: ArgumentRef<
    Types,
    ArgValue<D>
  >;
};

function argOf(t: ArgBuilder, p: ParamDecl, note: string) {
  const description = p.graphqlDescription?.(note) ?? p.description;
  const validate = p.shape as z.ZodType<never> | undefined;
  switch (p.kind) {
    case 'string':
      return t.string({ description, validate });
    case 'strings':
      return t.stringList({ description, validate });
    case 'int':
      return t.int({ required: true, defaultValue: p.default, description, validate: numberCheck(p) });
    case 'float':
      return t.float({ required: true, defaultValue: p.default, description, validate: numberCheck(p) });
    case 'enum':
      return t({ type: enumType(p.values), defaultValue: p.default, description });
    case 'enums':
      return t({ type: [enumType(p.values)], description });
    case 'boolean':
      return t.boolean({ required: true, defaultValue: p.default, description });
  }
}

/** The GraphQL arguments of a field taking `params`, in their order, described for the field. */
export function graphqlArgs<const P extends readonly ParamRef[]>(t: ArgBuilder, params: P): ArgsOf<P> {
  return Object.fromEntries(
    params.flatMap((ref) => {
      const { param: p, graphql: note } = useOf(ref);
      return p.graphql === undefined ? [] : [[p.graphql, argOf(t, p, note ?? '')]];
    }),
  ) as ArgsOf<P>;
}

/**
 * Runs a service call on a field's arguments as service input; its input errors name the
 * arguments as GraphQL does (`zones`, `timeZone`, a resolution as `NATIVE`).
 */
export async function withArgs<const P extends readonly ParamRef[], T>(
  params: P,
  args: object,
  work: (input: InputOf<P>) => Promise<T>,
): Promise<T> {
  return namedOn('graphql', params, () => work(inputOf(params, 'graphql', args as Readonly<Record<string, unknown>>)));
}

/**
 * The arguments, page limits (at most `maxPage` rows a page) and resolver of a keyset connection
 * field over declared parameters: `resolve` gets the page arguments and the parameters as service
 * input, its input errors named as GraphQL does.
 */
export function connectionArgs<const P extends readonly ParamRef[], T>(
  t: ArgBuilder,
  params: P,
  maxPage: number,
  resolve: (ctx: GraphQLContext, page: PageArgs, input: InputOf<P>) => Promise<T>,
) {
  return {
    args: graphqlArgs(t, params),
    ...pageLimits(maxPage),
    resolve: (_root: unknown, args: PageArgs, ctx: GraphQLContext) =>
      withArgs(params, args, (input) => resolve(ctx, args, input)),
  };
}
