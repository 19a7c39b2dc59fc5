import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import SchemaBuilder from '@pothos/core';
import { DateTimeISOResolver } from 'graphql-scalars';
import { graphql, type GraphQLField, type GraphQLObjectType, isNonNullType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { enumValues } from '../../src/contract/enums.js';
import { graphqlMetaFields, META, type MetaDecl, type MetaField, restMetaFields } from '../../src/contract/meta.js';
import { metaSchema, metaWriter } from '../../src/contract/meta-rest.js';
import { metaFields } from '../../src/graphql/schema/meta.js';
import type { FieldBuilder } from '../../src/graphql/rows/object-type.js';
import { schema } from '../../src/graphql/schema/index.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import { metaToWire } from '../../src/rest/schemas.js';

interface OpenApiProperty {
  type: string | string[];
  description?: string;
  enum?: unknown[];
}

interface OpenApiObject {
  properties: Record<string, OpenApiProperty>;
  required?: string[];
}

const typesOf = (p: OpenApiProperty) => [p.type].flat();

/** What OpenAPI shows of a meta field: its description, its type and whether it may be null. */
function expectOnOpenApi<S>(f: MetaField<S>, found: OpenApiProperty | undefined): void {
  expect(found?.description).toBe(f.description);
  const types = typesOf(found!);
  expect(types.includes('null')).toBe(f.absent === 'null');
  const type = {
    enum: 'string',
    strings: 'array',
    naiveUtc: 'string',
    string: 'string',
    int: 'integer',
    object: 'object',
  }[f.kind];
  expect(types).toContain(type);
  if (f.kind === 'enum') expect(found?.enum?.filter((v) => v !== null)).toEqual(enumValues(f.values));
}

/** What GraphQL shows of a meta field: its description, its type and whether it may be null. */
function expectOnGraphql<S>(f: MetaField<S>, found: GraphQLField<unknown, unknown> | undefined): void {
  expect(found?.description).toBe(f.graphqlDescription ?? f.description);
  expect(isNonNullType(found!.type)).toBe(f.absent === undefined);
  const type = String(found!.type).replace(/!$/, '');
  const expected = {
    enum: f.kind === 'enum' ? f.values.graphql : '',
    strings: '[String!]',
    naiveUtc: 'DateTime',
    string: 'String',
    int: 'Int',
    object: '',
  }[f.kind];
  expect(type).toBe(expected);
}

const openApiMeta = (buildOpenApi(ENDPOINTS) as { components: { schemas: Record<string, OpenApiObject> } }).components
  .schemas.Meta!;
const graphqlMeta = schema.getType(META.graphql) as GraphQLObjectType;

describe('the declared response meta', () => {
  it('is the OpenAPI Meta component: its REST fields in order, required unless omitted when absent', () => {
    const rest = restMetaFields(META.fields);
    expect(Object.keys(openApiMeta.properties)).toEqual(rest.map((f) => f.rest));
    expect(openApiMeta.required).toEqual(rest.filter((f) => f.absent !== 'omitted').map((f) => f.rest));
  });

  it.each(restMetaFields(META.fields).map((f) => [f.rest, f] as const))(
    '%s is in OpenAPI with its declared description and type',
    (name, f) => {
      expectOnOpenApi(f, openApiMeta.properties[name]);
    },
  );

  it('is the GraphQL Meta type: its GraphQL fields only (pagination is REST only)', () => {
    expect(Object.keys(graphqlMeta.getFields()).sort()).toEqual(
      graphqlMetaFields(META.fields)
        .map((f) => f.graphql)
        .sort(),
    );
    expect(graphqlMeta.getFields()).not.toHaveProperty('pagination');
    expect(graphqlMeta.description).toBe(META.description);
  });

  it.each(graphqlMetaFields(META.fields).map((f) => [f.graphql, f] as const))(
    '%s is on GraphQL with its declared description and type',
    (name, f) => {
      expectOnGraphql(f, graphqlMeta.getFields()[name]);
    },
  );

  it('writes REST instants as UTC text without offset, null when absent, and leaves time_zone out without tz', () => {
    const range = { from: new Date('2026-03-29T00:00:00Z'), to: new Date('2026-03-30T00:00:00.250Z') };
    const page = { total: 10, limit: 5, offset: 5, nextOffset: null };
    expect(
      JSON.stringify(
        metaToWire({ provenance: 'measured', upstreamSources: ['demo'], range, resolution: '1H', pagination: page }),
      ),
    ).toBe(
      '{"provenance":"measured","upstream_sources":["demo"],"resolved_datetime_from":"2026-03-29T00:00:00","resolved_datetime_to":"2026-03-30T00:00:00.250","resolution":"1H","pagination":{"total":10,"limit":5,"offset":5,"next_offset":null}}',
    );
    const absent = { upstreamSources: null, range: null, resolution: null, pagination: null };
    expect(metaToWire({ provenance: 'derived', ...absent, timeZone: 'Europe/Berlin' })).toEqual({
      provenance: 'derived',
      upstream_sources: null,
      resolved_datetime_from: null,
      resolved_datetime_to: null,
      resolution: null,
      pagination: null,
      time_zone: 'Europe/Berlin',
    });
  });
});

/** A meta source that exists only here. */
interface TestSource {
  readonly producedAt: Date | null;
  readonly note?: string;
  readonly count: number;
}

/** A meta declared only here: each field once, it must reach OpenAPI, the REST JSON and GraphQL. */
const TEST_META = {
  rest: 'TestMeta',
  graphql: 'TestMeta',
  description: 'Test-only meta.',
  fields: [
    {
      rest: 'produced_at',
      graphql: 'producedAt',
      kind: 'naiveUtc',
      absent: 'null',
      get: (s: TestSource) => s.producedAt,
      description: 'Test-only: when it was produced, UTC without offset.',
      graphqlDescription: 'Test-only: when it was produced, UTC.',
    },
    {
      rest: 'note',
      graphql: 'note',
      kind: 'string',
      absent: 'omitted',
      get: (s: TestSource) => s.note,
      description: 'Test-only: a note, only when there is one.',
    },
    { rest: 'rest_count', kind: 'int', get: (s: TestSource) => s.count, description: 'Test-only: a count, REST only.' },
  ],
} as const satisfies MetaDecl<TestSource>;

describe('a meta field declared in one place', () => {
  const produced = new Date('2026-03-29T01:00:00Z');

  it('is in the OpenAPI component under its REST name, nullable or optional as declared', () => {
    const component = new OpenApiGeneratorV31([{ type: 'schema', schema: metaSchema(TEST_META) }]).generateComponents()
      .components?.schemas?.TestMeta as OpenApiObject;
    expect(Object.keys(component.properties)).toEqual(['produced_at', 'note', 'rest_count']);
    expect(component.required).toEqual(['produced_at', 'rest_count']);
    for (const f of TEST_META.fields) expectOnOpenApi(f, component.properties[f.rest]);
  });

  it('is in the REST JSON under its REST name, an instant as UTC text without offset, an omitted value left out', () => {
    const write = metaWriter(TEST_META);
    expect(JSON.stringify(write({ producedAt: produced, count: 3 }))).toBe(
      '{"produced_at":"2026-03-29T01:00:00","rest_count":3}',
    );
    expect(write({ producedAt: null, note: 'n', count: 0 })).toEqual({ produced_at: null, note: 'n', rest_count: 0 });
    expect(metaSchema(TEST_META).parse(write({ producedAt: produced, count: 3 }))).toEqual({
      produced_at: '2026-03-29T01:00:00',
      rest_count: 3,
    });
  });

  it('is on GraphQL under its GraphQL name, an instant as DateTime, an absent value null, REST-only fields left out', async () => {
    const b = new SchemaBuilder<{
      DefaultFieldNullability: false;
      Scalars: { DateTime: { Input: Date; Output: Date } };
    }>({ defaultFieldNullability: false });
    b.addScalarType('DateTime', DateTimeISOResolver);
    const ref = b
      .objectRef<TestSource>(TEST_META.graphql)
      .implement({ fields: (t) => metaFields(t as unknown as FieldBuilder<TestSource>, TEST_META.fields) as never });
    b.queryType({
      fields: (t) => ({ meta: t.field({ type: ref, resolve: () => ({ producedAt: produced, count: 3 }) }) }),
    });
    const testSchema = b.toSchema();
    const type = testSchema.getType(TEST_META.graphql) as GraphQLObjectType;
    expect(Object.keys(type.getFields()).sort()).toEqual(['note', 'producedAt']);
    for (const f of graphqlMetaFields(TEST_META.fields)) expectOnGraphql(f, type.getFields()[f.graphql]);
    const result = await graphql({ schema: testSchema, source: '{ meta { producedAt note } }' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ meta: { producedAt: '2026-03-29T01:00:00.000Z', note: null } });
  });
});
