import SchemaBuilder from '@pothos/core';
import ValidationPlugin from '@pothos/plugin-validation';
import { getNamedType, graphql, type GraphQLArgument } from 'graphql';
import { describe, expect, it } from 'vitest';
import { enumValues } from '../../src/contract/enums.js';
import { BORDERS, namedOn, type ParamDecl, PARAMS, RANGE, use, ZONES } from '../../src/contract/params.js';
import { DATA_CATALOGUE } from '../../src/domain/catalogue.js';
import { PRICE_ROW } from '../../src/contract/rows/prices.js';
import { resolveRange } from '../../src/domain/time.js';
import { InputError } from '../../src/errors.js';
import { type ArgBuilder, graphqlArgs, withArgs } from '../../src/graphql/schema/args.js';
import { schema } from '../../src/graphql/schema/index.js';
import { rowsEndpoint } from '../../src/rest/endpoint.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import { parseQuery } from '../../src/rest/query.js';
import type { ServiceDeps } from '../../src/services/context.js';

interface OpenApiParam {
  name: string;
  description?: string;
  schema: {
    type: string | string[];
    items?: { type: string; enum?: string[] };
    enum?: string[];
    default?: unknown;
    minimum?: number;
    maximum?: number;
    description?: string;
  };
}

const operations = (doc: object) =>
  Object.values((doc as { paths: Record<string, { get: { parameters: OpenApiParam[] } }> }).paths).map((p) => p.get);
const typesOf = (s: OpenApiParam['schema']) => [s.type].flat();

/** What OpenAPI shows of a declared parameter: its type, enum values, default and bounds. */
function expectOnOpenApi(p: ParamDecl, found: OpenApiParam): void {
  const s = found.schema;
  switch (p.kind) {
    case 'string':
      expect(typesOf(s)).toContain('string');
      break;
    case 'strings':
      expect(s).toMatchObject({ type: 'array', items: { type: 'string' } });
      break;
    case 'int':
    case 'float':
      expect(typesOf(s)).toContain(p.kind === 'int' ? 'integer' : 'number');
      expect(s).toMatchObject({
        minimum: p.min,
        default: p.default,
        ...(p.max === undefined ? {} : { maximum: p.max }),
      });
      break;
    case 'enum':
      expect(s).toMatchObject({
        type: 'string',
        enum: enumValues(p.values),
        ...(p.default === undefined ? {} : { default: p.default }),
      });
      break;
    case 'enums':
      expect(s).toMatchObject({ type: 'array', items: { type: 'string', enum: enumValues(p.values) } });
      break;
  }
}

/** What GraphQL shows of a declared parameter: its type and default. */
function expectOnGraphql(p: ParamDecl, arg: GraphQLArgument): void {
  const type = String(arg.type);
  switch (p.kind) {
    case 'string':
      return void expect(type).toBe('String');
    case 'strings':
      return void expect(type).toBe('[String!]');
    case 'int':
    case 'float':
      expect(type).toBe(p.kind === 'int' ? 'Int!' : 'Float!');
      return void expect(arg.defaultValue).toBe(p.default);
    case 'enum':
      expect(type).toBe(p.values.graphql);
      return void expect(arg.defaultValue).toBe(p.default);
    case 'enums':
      return void expect(type).toBe(`[${p.values.graphql}!]`);
  }
}

describe('every declared query parameter', () => {
  const restParams = operations(buildOpenApi(ENDPOINTS)).flatMap((o) => o.parameters);
  const graphqlArgsOf = Object.values(schema.getQueryType()!.getFields()).flatMap((f) => f.args);

  it.each(PARAMS.filter((p) => p.rest !== undefined).map((p) => [p.rest!, p] as const))(
    '%s is a REST parameter in OpenAPI with its declared type, default and bounds',
    (name, p) => {
      const found = restParams.filter((q) => q.name === name);
      expect(found.length).toBeGreaterThan(0);
      for (const q of found) expectOnOpenApi(p, q);
    },
  );

  /** The arguments a declaration stands for: those of its name, told from a namesake's by their enum type. */
  const argsOf = (p: ParamDecl) => {
    const namesakes = PARAMS.filter((d) => d.graphql === p.graphql);
    return graphqlArgsOf.filter(
      (a) =>
        a.name === p.graphql &&
        (namesakes.length === 1 || ('values' in p && getNamedType(a.type).name === p.values.graphql)),
    );
  };

  it.each(PARAMS.filter((p) => p.graphql !== undefined).map((p) => [p.graphql!, p] as const))(
    '%s is a GraphQL argument with its declared type and default',
    (_name, p) => {
      const found = argsOf(p);
      expect(found.length).toBeGreaterThan(0);
      for (const a of found) expectOnGraphql(p, a);
    },
  );
});

/** A parameter that exists only here: declared once, it must reach both surfaces and OpenAPI. */
const WINDOW = {
  input: 'windowHours',
  rest: 'window_h',
  graphql: 'windowHours',
  kind: 'int',
  min: 1,
  max: 48,
  default: 24,
  description: 'Test-only: a window, hours.',
  graphqlDescription: () => 'Test-only: a window, hours (1 to 48).',
} as const satisfies ParamDecl;

const PARAMS_UNDER_TEST = [...RANGE, use(WINDOW, { rest: 'Test-only: the window of this endpoint, hours.' })] as const;

describe('a parameter declared in one place', () => {
  const seen: unknown[] = [];
  const doc = {
    path: '/api/v1/test-window',
    reads: [],
    summary: 'Test-only endpoint',
    description: 'Takes the test-only parameter.',
    contract: PRICE_ROW,
  };
  const endpoint = rowsEndpoint({
    ...doc,
    params: PARAMS_UNDER_TEST,
    rows: async (_deps, input) => {
      seen.push(input);
      return {
        meta: { provenance: 'derived', upstreamSources: null, range: null, resolution: null, pagination: null },
        rows: [],
      };
    },
  });

  it("appears in OpenAPI under its REST name with its bounds, default and this use's description", () => {
    const [op] = operations(buildOpenApi([endpoint]));
    const window = op!.parameters.find((p) => p.name === 'window_h');
    expect(window?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 48, default: 24 });
    expect(window?.description ?? window?.schema.description).toBe('Test-only: the window of this endpoint, hours.');
    expect(op!.parameters.map((p) => p.name)).toEqual(['datetime_from', 'datetime_to', 'window_h', 'format']);
  });

  it('reaches the service as its input field from REST, defaulted when omitted and refused out of bounds', async () => {
    seen.length = 0;
    await endpoint.handle({} as ServiceDeps, parseQuery(endpoint.query, { window_h: '12', datetime_from: 'now-1d' }));
    await endpoint.handle({} as ServiceDeps, parseQuery(endpoint.query, {}));
    expect(seen).toEqual([
      { datetimeFrom: 'now-1d', datetimeTo: undefined, windowHours: 12 },
      { datetimeFrom: undefined, datetimeTo: undefined, windowHours: 24 },
    ]);
    const err = (() => {
      try {
        parseQuery(endpoint.query, { window_h: '49' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).issues).toEqual([
      { param: 'window_h', msg: 'Input should be less than or equal to 48', type: 'less_than_equal', input: '49' },
    ]);
  });

  it('is a GraphQL argument under its GraphQL name that reaches the service, with its bounds checked', async () => {
    const b = new SchemaBuilder<{ DefaultFieldNullability: false }>({
      plugins: [ValidationPlugin],
      defaultFieldNullability: false,
    });
    b.queryType({
      fields: (t) => ({
        window: t.string({
          args: graphqlArgs(t.arg as unknown as ArgBuilder, PARAMS_UNDER_TEST),
          resolve: (_r, args) => withArgs(PARAMS_UNDER_TEST, args, async (input) => JSON.stringify(input)),
        }),
      }),
    });
    const testSchema = b.toSchema();
    const arg = testSchema
      .getQueryType()!
      .getFields()
      .window!.args.find((a) => a.name === 'windowHours');
    expect(String(arg?.type)).toBe('Int!');
    expect(arg?.defaultValue).toBe(24);
    expect(arg?.description).toBe('Test-only: a window, hours (1 to 48).');
    const ok = await graphql({
      schema: testSchema,
      source: '{ a: window(from: "now-1d", windowHours: 12) b: window }',
    });
    expect(ok.errors).toBeUndefined();
    expect(JSON.parse((ok.data as { a: string }).a)).toEqual({ datetimeFrom: 'now-1d', windowHours: 12 });
    expect(JSON.parse((ok.data as { b: string }).b)).toEqual({ windowHours: 24 });
    const refused = await graphql({ schema: testSchema, source: '{ window(windowHours: 49) }' });
    expect(refused.errors?.[0]?.message).toMatch(/windowHours/);
  });

  it('names the input errors a service reports by declaration as each surface names the parameter', async () => {
    const byDeclaration = () => InputError.of(WINDOW.input, 'bad', 'value_error', 'x');
    const onGraphql = withArgs(PARAMS_UNDER_TEST, {}, () => Promise.reject(byDeclaration()));
    await expect(onGraphql).rejects.toMatchObject({ issues: [{ param: 'windowHours', msg: 'bad', input: 'x' }] });
    const failingEndpoint = rowsEndpoint({
      ...doc,
      params: PARAMS_UNDER_TEST,
      rows: async () => {
        throw byDeclaration();
      },
    });
    await expect(
      failingEndpoint.handle({} as ServiceDeps, parseQuery(failingEndpoint.query, {})),
    ).rejects.toMatchObject({ issues: [{ param: 'window_h', msg: 'bad', input: 'x' }] });
  });

  it('reports the unknown values of a list once per parameter on REST and at each index on GraphQL', async () => {
    const zones = () => Promise.resolve(DATA_CATALOGUE.resolveZones(['XX', 'FR', 'FRR']));
    await expect(namedOn('rest', [ZONES], zones)).rejects.toMatchObject({
      issues: [{ param: 'zone', msg: 'Unknown bidding zone: XX, FRR; did you mean FR for FRR?', input: ['XX', 'FRR'] }],
    });
    await expect(namedOn('graphql', [ZONES], zones)).rejects.toMatchObject({
      issues: [
        { param: 'zones.0', msg: 'Unknown bidding zone: XX', input: 'XX' },
        { param: 'zones.2', msg: 'Unknown bidding zone: FRR; did you mean FR?', input: 'FRR' },
      ],
    });
    const borders = () => Promise.resolve(DATA_CATALOGUE.resolveBorders(['FR', 'FR->ES', 'FR->PT']));
    const rest = namedOn('rest', [BORDERS], borders);
    await expect(rest).rejects.toMatchObject({ issues: [{ param: 'border', input: 'FR' }] });
    await expect(rest).rejects.toSatisfy((e: InputError) => e.issues.length === 1);
    await expect(namedOn('graphql', [BORDERS], borders)).rejects.toMatchObject({
      issues: [
        { param: 'borders.0', msg: "Invalid border 'FR': expected ZONE_FROM->ZONE_TO", input: 'FR' },
        { param: 'borders.2', msg: 'FR and PT do not share a border', input: 'FR->PT' },
      ],
    });
  });

  it('names a range the domain refuses as each surface names its bounds', async () => {
    const resolve = async (input: { datetimeFrom?: string | undefined; datetimeTo?: string | undefined }) => {
      resolveRange(input.datetimeFrom, input.datetimeTo, Date.now());
      return {
        meta: {
          provenance: 'derived',
          upstreamSources: null,
          range: null,
          resolution: null,
          pagination: null,
        } as const,
        rows: [],
      };
    };
    const later = 'datetime_to must be later than datetime_from';
    await expect(withArgs(RANGE, { from: 'now', to: 'now-1d' }, resolve)).rejects.toMatchObject({
      issues: [{ param: 'to', msg: later }],
    });
    await expect(withArgs(RANGE, { from: 'yesterday' }, resolve)).rejects.toMatchObject({
      issues: [{ param: 'from', input: 'yesterday' }],
    });
    const rangeEndpoint = rowsEndpoint({ ...doc, params: RANGE, rows: (_d, input) => resolve(input) });
    await expect(
      rangeEndpoint.handle(
        {} as ServiceDeps,
        parseQuery(rangeEndpoint.query, { datetime_from: 'now', datetime_to: 'now-1d' }),
      ),
    ).rejects.toMatchObject({
      issues: [{ param: 'datetime_to', msg: later }],
    });
  });
});
