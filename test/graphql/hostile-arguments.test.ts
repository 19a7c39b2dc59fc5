import fc from 'fast-check';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { describe, expect } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { SWEEP_SEED, TEST_BACKENDS } from '../support/env.js';
import { hostileCursor, hostileText, leakIn } from '../support/hostile.js';

/** Codes of errors that are the client's to fix. */
const CLIENT_CODES = new Set(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'QUERY_TOO_COMPLEX', 'BAD_REQUEST']);

/** Every scalar and enum leaf of a type, two levels of objects deep, skipping fields with required arguments. */
function selection(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named) || depth > 2) return '{ __typename }';
  const parts = Object.values(named.getFields())
    .filter((f) => !f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined))
    .map((f) => `${f.name} ${selection(f.type, depth + 1)}`.trim());
  return `{ __typename ${parts.join(' ')} }`;
}

/** Hostile JSON values for a variable of `type`: wrong types, out-of-range numbers, hostile text. */
function valueFor(arg: GraphQLArgument, type: GraphQLInputType = arg.type): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return valueFor(arg, type.ofType);
  const wrong = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  );
  if (isListType(type)) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(valueFor(arg, type.ofType), { maxLength: 3 }) },
      { weight: 1, arbitrary: valueFor(arg, type.ofType) },
    );
  }
  const named = getNamedType(type);
  const text = arg.name === 'after' || arg.name === 'before' ? hostileCursor : hostileText;
  if (isEnumType(named)) return fc.oneof(fc.constantFrom(...named.getValues().map((v) => v.name)), text, wrong);
  switch (named.name) {
    case 'Int':
      return fc.oneof(
        fc.integer(),
        fc.integer({ min: -5, max: 25_000 }),
        fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1e300, 0.5),
        text,
        wrong,
      );
    case 'Float':
      return fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(0, -0, 1e-300, 5e-324, 1e308),
        text,
        wrong,
      );
    default:
      return fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: fc.oneof(fc.integer(), wrong) });
  }
}

/** One operation over `field` with every argument passed as a variable of the argument's type. */
function operation(field: GraphQLField<unknown, unknown>): string {
  const vars = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `query Sweep(${vars}) { ${field.name}(${args}) ${selection(field.type)} }`;
}

interface Answer {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string; issues?: { param: string }[] } }[];
}

/** What is wrong with one answer, or null. */
function verdict(
  status: number,
  text: string,
  sent: Record<string, unknown>,
  argNames: readonly string[],
): string | null {
  const echoes = Object.values(sent)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v): v is string => typeof v === 'string');
  const leak = leakIn(text, echoes);
  if (leak) return `leak: ${leak}`;
  if (status >= 500) return `status ${status}`;
  const body = JSON.parse(text) as Answer;
  if (!('data' in body) && (status < 400 || status >= 500))
    return `no data with status ${status}: ${text.slice(0, 300)}`;
  for (const e of body.errors ?? []) {
    const code = e.extensions?.code;
    if (body.data === undefined) {
      if (!argNames.some((name) => e.message.includes(`$${name}`)))
        return `request error naming no variable: ${e.message}`;
    } else if (!code || !CLIENT_CODES.has(code)) {
      return `field error coded ${code}: ${e.message}`;
    } else if (
      code === 'BAD_USER_INPUT' &&
      !(e.extensions?.issues ?? []).every((i) => argNames.includes(i.param.split('.')[0] ?? ''))
    ) {
      return `issue naming no argument: ${JSON.stringify(e.extensions)}`;
    }
  }
  return null;
}

const FIELDS = Object.values(schema.getQueryType()!.getFields()).filter((f) => f.args.length > 0);

describe.each(TEST_BACKENDS)('hostile GraphQL arguments on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 1_000_000 } });

  it.each(FIELDS.map((f) => [f.name, f] as const))(
    'answers hostile arguments of %s with data or a client error naming them',
    async (_name, field) => {
      const query = operation(field);
      const variables = fc.record(Object.fromEntries(field.args.map((a) => [a.name, valueFor(a)])), {
        requiredKeys: [],
      });
      await fc.assert(
        fc.asyncProperty(variables, async (sent) => {
          const res = await t.get('/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
            body: JSON.stringify({ query, variables: sent }),
          });
          const problem = verdict(
            res.status,
            await res.text(),
            sent,
            field.args.map((a) => a.name),
          );
          expect(problem, JSON.stringify(sent).slice(0, 500)).toBeNull();
        }),
        { numRuns: 60, seed: SWEEP_SEED, interruptAfterTimeLimit: 20_000 },
      );
    },
    60_000,
  );
});
