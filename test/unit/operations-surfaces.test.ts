import { type GraphQLArgument, GraphQLNonNull, type GraphQLSchema, graphql, parse, subscribe } from 'graphql';
import { describe, expect, it } from 'vitest';
import { defineRow, fieldsOf } from '../../src/contract/fields.js';
import {
  declOf,
  type ParamDecl,
  type ParamRef,
  RANGE,
  TIME_ZONE,
  use,
  useOf,
  ZONES,
} from '../../src/contract/params.js';
import { builder } from '../../src/graphql/builder.js';
import { addOperationFields } from '../../src/graphql/schema/aggregates.js';
import { schema } from '../../src/graphql/schema/index.js';
import { listField } from '../../src/graphql/schema/operation-fields.js';
import { toolName, toolsOf } from '../../src/mcp/tools.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { defineSubscription, SUBSCRIPTIONS } from '../../src/operations/subscriptions.js';
import { addSubscriptionFields } from '../../src/graphql/schema/events.js';
import { defineOperation, type Operation } from '../../src/operations/operation.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { operationEndpoint } from '../../src/rest/endpoints/operations.js';
import { EXPORTS } from '../../src/rest/export/endpoints.js';
import { buildOpenApi } from '../../src/rest/openapi.js';

type OpenApiParam = { name: string; in: string; schema: Record<string, unknown> };
type OpenApiDoc = {
  paths: Record<string, { get?: { operationId?: string; parameters?: (OpenApiParam | { $ref: string })[] } }>;
  components?: { parameters?: Record<string, OpenApiParam> };
};

/** The query parameters of a path in an OpenAPI document, `$ref`s resolved. */
function openApiParams(doc: OpenApiDoc, path: string): OpenApiParam[] {
  return (doc.paths[path]?.get?.parameters ?? []).map((p) =>
    '$ref' in p ? doc.components!.parameters![p.$ref.split('/').pop()!]! : p,
  );
}

/** The schema of a possibly nullable-wrapped OpenAPI parameter (`anyOf` of the value and null). */
const valueSchema = (s: Record<string, unknown>): Record<string, unknown> =>
  (s.anyOf as Record<string, unknown>[] | undefined)?.find((x) => x.type !== 'null') ?? s;

const restParams = (op: Operation): ParamDecl[] => op.params.map(declOf).filter((p) => p.rest !== undefined);
const graphqlParams = (op: Operation): ParamDecl[] => op.params.map(declOf).filter((p) => p.graphql !== undefined);
const declaredDefault = (p: ParamDecl): unknown => ('default' in p ? p.default : undefined);
const declaredBounds = (p: ParamDecl) =>
  p.kind === 'int' || p.kind === 'float' ? { min: p.min, max: p.max } : { min: undefined, max: undefined };

/** The page arguments a connection field adds to its declared ones. */
const PAGE_ARGS = ['first', 'after', 'last', 'before'];

/** An argument's default: a GraphQL enum value is its REST spelling inside. */
const argDefault = (a: GraphQLArgument): unknown => a.defaultValue;

/** Checks that `op` is on REST/OpenAPI (booleans are `true`/`false` texts there), MCP and GraphQL with its declared names, defaults and bounds. */
function expectOnEverySurface(op: Operation, doc: OpenApiDoc, gql: GraphQLSchema, tools: ReturnType<typeof toolsOf>) {
  const rest = openApiParams(doc, op.path);
  expect(rest.filter((p) => p.in === 'query' && p.name !== 'format').map((p) => p.name)).toEqual(
    restParams(op).map((p) => p.rest),
  );
  for (const p of restParams(op)) {
    const schema = valueSchema(rest.find((x) => x.name === p.rest)!.schema);
    expect({ name: p.rest, default: schema.default, min: schema.minimum, max: schema.maximum }).toEqual({
      name: p.rest,
      default: p.kind === 'boolean' ? String(p.default) : declaredDefault(p),
      ...declaredBounds(p),
    });
  }

  const tool = tools.find((t) => t.name === toolName(op));
  expect(tool, `MCP tool of ${op.path}`).toBeDefined();
  const properties = tool!.inputSchema.properties as Record<string, Record<string, unknown>>;
  for (const p of restParams(op)) {
    expect({ name: p.rest, default: properties[p.rest!]?.default, min: properties[p.rest!]?.minimum }).toEqual({
      name: p.rest,
      default: declaredDefault(p),
      min: declaredBounds(p).min,
    });
  }

  const field = gql.getQueryType()!.getFields()[op.graphql.field];
  expect(field, `GraphQL field ${op.graphql.field}`).toBeDefined();
  expect(field!.args.map((a) => a.name).sort()).toEqual(
    [...graphqlParams(op).map((p) => p.graphql!), ...(op.graphql.kind === 'connection' ? PAGE_ARGS : [])].sort(),
  );
  if (op.graphql.kind === 'connection') {
    const declaredOrder = op.graphql.argOrder ?? graphqlParams(op).map((p) => p.graphql!);
    expect(field!.args.map((a) => a.name).filter((a) => !PAGE_ARGS.includes(a))).toEqual(declaredOrder);
  }
  for (const p of graphqlParams(op)) {
    const arg = field!.args.find((a) => a.name === p.graphql)!;
    expect({ name: p.graphql, default: argDefault(arg), required: arg.type instanceof GraphQLNonNull }).toEqual({
      name: p.graphql,
      default: declaredDefault(p),
      required: p.kind === 'int' || p.kind === 'float' || p.kind === 'boolean',
    });
  }
  expect(field!.description).toBe(op.graphql.description);
}

describe('declared operations', () => {
  const doc = buildOpenApi(ENDPOINTS, EXPORTS) as OpenApiDoc;
  const tools = toolsOf(ENDPOINTS);

  it.each(OPERATIONS.map((op) => [op.path, op] as const))(
    '%s is on REST, OpenAPI, MCP and GraphQL with its declared names, defaults and bounds',
    (_path, op) => {
      expectOnEverySurface(op, doc, schema, tools);
    },
  );

  it('an export takes exactly its twin operation’s parameters, without the page', () => {
    for (const e of EXPORTS) {
      const twin = ENDPOINTS.find((x) => x.path === e.twin)!;
      const names = (twin.params ?? [])
        .map((r) => declOf(r).rest)
        .filter((n) => n !== undefined && n !== 'limit' && n !== 'offset');
      expect(openApiParams(doc, e.path).map((p) => p.name)).toEqual([...names, 'format']);
    }
  });
});

describe('declared subscriptions', () => {
  it.each(SUBSCRIPTIONS.map((op) => [op.field, op] as const))(
    '%s is a GraphQL subscription taking exactly its declared parameters, described as the query fields describe them',
    (_field, op) => {
      const field = schema.getSubscriptionType()!.getFields()[op.field];
      expect(field, `subscription ${op.field}`).toBeDefined();
      expect(field!.description).toBe(op.description);
      const declared = op.params.map((ref: ParamRef) => {
        const { param, graphql } = useOf(ref);
        return { name: param.graphql, description: param.graphqlDescription?.(graphql ?? '') ?? param.description };
      });
      expect(field!.args.map((a) => ({ name: a.name, description: a.description }))).toEqual(declared);
    },
  );

  it('watch the same zone and border parameters as the prices and flows queries', () => {
    const query = schema.getQueryType()!.getFields();
    const subscription = schema.getSubscriptionType()!.getFields();
    expect(String(subscription.pricesPublished!.args[0]!.type)).toBe(
      String(query.prices!.args.find((a) => a.name === 'zones')!.type),
    );
    expect(String(subscription.flowsUpdated!.args[0]!.type)).toBe(
      String(query.flows!.args.find((a) => a.name === 'borders')!.type),
    );
  });
});

describe('an operation declared once in a test', () => {
  interface EchoRow {
    readonly zone: string;
    readonly count: number;
  }
  const f = fieldsOf<EchoRow>();
  const ECHO_ROW = defineRow<EchoRow>({
    rest: 'EchoRow',
    graphql: 'EchoRow',
    description: 'A zone and a count (test only).',
    fields: [
      f.string((r) => r.zone, { rest: 'zone', graphql: 'zone', description: 'Zone code.' }),
      f.int((r) => r.count, { rest: 'count', graphql: 'count', description: 'How many.' }),
    ],
  });
  const TIMES = {
    input: 'times',
    rest: 'times',
    graphql: 'times',
    kind: 'int',
    min: 2,
    max: 7,
    default: 3,
    description: 'Repetitions, 2 to 7.',
  } as const satisfies ParamDecl;
  const echo = defineOperation({
    path: '/api/v1/echo-test',
    reads: ['prices'],
    summary: 'Echo (test only)',
    description: 'Repeats the zones (test only).',
    params: [...RANGE, use(ZONES, { graphql: 'Echoed.' }), TIMES, TIME_ZONE],
    contract: ECHO_ROW,
    rows: async (_deps, input) => ({
      meta: {} as never,
      rows: (input.zones ?? []).map((zone) => ({ zone, count: input.times })),
    }),
    graphql: {
      kind: 'rows',
      field: 'echoTest',
      description: 'Repeats the zones (test only).',
      result: { name: 'EchoTestResult', description: 'Echoed zones.' },
    },
  });

  /** The same operation shown on GraphQL as a list of objects (the kind of zones and borders). */
  const echoList = defineOperation({
    ...echo,
    path: '/api/v1/echo-list-test',
    graphql: {
      kind: 'list',
      field: 'echoListTest',
      description: 'The zones as objects (test only).',
      items: async (_deps, input) => (input.zones ?? []).map((zone) => ({ zone, count: input.times })),
    },
  });
  const EchoObject = builder.objectRef<EchoRow>('EchoObject').implement({
    description: 'An echoed zone (test only).',
    fields: (t) => ({ zone: t.exposeString('zone'), count: t.exposeInt('count') }),
  });

  /** A stream of the same parameters (the kind of pricesPublished and flowsUpdated). */
  const echoPublished = defineSubscription({
    field: 'echoPublished',
    description: 'Price events of the zones, repeated (test only).',
    event: 'prices',
    params: [use(ZONES, { graphql: 'Watched.' }), TIMES],
    watch: (_deps, input) => (e) => e.zones.length < input.times,
  });

  it('is on REST, OpenAPI, MCP and GraphQL with its names and bounds', async () => {
    const endpoint = operationEndpoint(echo);
    const listEndpoint = operationEndpoint(echoList);
    const doc = buildOpenApi([endpoint, listEndpoint]) as OpenApiDoc;
    addOperationFields([echo]);
    builder.queryFields((t) => ({ [echoList.graphql.field]: listField(t, echoList, EchoObject) }));
    addSubscriptionFields([echoPublished]);
    const gql = builder.toSchema({ sortSchema: false });
    const stream = gql.getSubscriptionType()!.getFields().echoPublished!;
    expect(stream.args.map((a) => [a.name, String(a.type), a.defaultValue])).toEqual([
      ['zones', '[String!]', undefined],
      ['times', 'Int!', 3],
    ]);
    const refused = await subscribe({
      schema: gql,
      document: parse('subscription { echoPublished(times: 8) { zones } }'),
      contextValue: {},
    });
    expect('errors' in refused && refused.errors?.[0]?.message).toMatch(/times/);
    expectOnEverySurface(echo, doc, gql, toolsOf([endpoint]));
    expectOnEverySurface(echoList, doc, gql, toolsOf([listEndpoint]));
    const answer = await graphql({
      schema: gql,
      source: '{ echoListTest(zones: ["DE_LU", "FR"], times: 5) { zone count } }',
      contextValue: { deps: {} },
    });
    expect(answer).toEqual({
      data: {
        echoListTest: [
          { zone: 'DE_LU', count: 5 },
          { zone: 'FR', count: 5 },
        ],
      },
    });
    const times = valueSchema(openApiParams(doc, echo.path).find((p) => p.name === 'times')!.schema);
    expect([times.minimum, times.maximum, times.default]).toEqual([2, 7, 3]);
    expect(endpoint.query.safeParse({ times: '8' }).success).toBe(false);
    const arg = gql
      .getQueryType()!
      .getFields()
      .echoTest!.args.find((a) => a.name === 'times')!;
    expect(arg.defaultValue).toBe(3);
  });
});
