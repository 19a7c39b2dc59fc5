/**
 * The response meta on both surfaces: the REST JSON and its OpenAPI component (rest/schemas.ts)
 * and the GraphQL `Meta` type (graphql/schema/common.ts) carry the same values, each under its
 * surface's name, nullable alike; REST writes instants as UTC text without offset.
 */
import { type GraphQLEnumType, type GraphQLField, type GraphQLObjectType, getNamedType, isNonNullType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import { metaToWire } from '../../src/rest/schemas.js';
import type { Meta } from '../../src/services/meta.js';

interface OpenApiProperty {
  type: string | string[];
  description?: string;
  enum?: unknown[];
}

/** Each REST meta key and its GraphQL field; `pagination` is REST only (connections page on GraphQL). */
const NAMES = [
  ['provenance', 'provenance'],
  ['upstream_sources', 'upstreamSources'],
  ['resolved_datetime_from', 'resolvedFrom'],
  ['resolved_datetime_to', 'resolvedTo'],
  ['resolution', 'resolution'],
  ['pagination', null],
  ['time_zone', 'timeZone'],
] as const;

const openApiMeta = (
  buildOpenApi(ENDPOINTS) as {
    components: { schemas: Record<string, { properties: Record<string, OpenApiProperty>; required: string[] }> };
  }
).components.schemas.Meta!;
const graphqlMeta = schema.getType('Meta') as GraphQLObjectType;

const META: Meta = {
  provenance: 'derived',
  upstreamSources: ['demo'],
  range: { from: new Date('2026-03-29T00:00:00Z'), to: new Date('2026-03-30T00:00:00.250Z') },
  resolution: '1H',
  pagination: { total: 10, limit: 5, offset: 5, nextOffset: null },
  timeZone: 'Europe/Berlin',
};

/** The value GraphQL's resolver gives for `meta` (the resolvers read the meta object only). */
const graphqlValue = (field: GraphQLField<unknown, unknown>, meta: Meta) =>
  field.resolve!(meta, {}, {}, {} as never) as unknown;

describe('the response meta', () => {
  it('is the OpenAPI Meta component: its keys in order, each described, required but time_zone', () => {
    expect(Object.keys(openApiMeta.properties)).toEqual(NAMES.map(([rest]) => rest));
    expect(openApiMeta.required).toEqual(NAMES.map(([rest]) => rest).filter((n) => n !== 'time_zone'));
    for (const [rest] of NAMES) expect(openApiMeta.properties[rest]!.description, rest).toMatch(/\w{4}/);
  });

  it('is the GraphQL Meta type: the same fields under GraphQL names, nullable where REST may be null', () => {
    const fields = graphqlMeta.getFields();
    expect(Object.keys(fields)).toEqual(NAMES.flatMap(([, graphql]) => (graphql ? [graphql] : [])));
    for (const [rest, graphql] of NAMES) {
      if (!graphql) continue;
      const restNullable = [openApiMeta.properties[rest]!.type].flat().includes('null') || rest === 'time_zone';
      expect(isNonNullType(fields[graphql]!.type), graphql).toBe(!restNullable);
      expect(fields[graphql]!.description, graphql).toMatch(/\w{4}/);
    }
  });

  it('offers the same enum values on both surfaces (GraphQL values stand for the REST spelling)', () => {
    for (const name of ['provenance', 'resolution'] as const) {
      const type = getNamedType(graphqlMeta.getFields()[name]!.type) as GraphQLEnumType;
      expect(type.getValues().map((v) => v.value)).toEqual(
        openApiMeta.properties[name]!.enum!.filter((v) => v !== null),
      );
    }
  });

  it('gives the same values on both surfaces, instants as UTC text without offset on REST', () => {
    const wire = metaToWire(META) as Record<string, unknown>;
    const fields = graphqlMeta.getFields();
    expect(graphqlValue(fields.provenance!, META)).toBe(wire.provenance);
    expect(graphqlValue(fields.upstreamSources!, META)).toEqual(wire.upstream_sources);
    expect(graphqlValue(fields.resolvedFrom!, META)).toEqual(new Date(`${String(wire.resolved_datetime_from)}Z`));
    expect(graphqlValue(fields.resolvedTo!, META)).toEqual(new Date(`${String(wire.resolved_datetime_to)}Z`));
    expect(graphqlValue(fields.resolution!, META)).toBe(wire.resolution);
    expect(graphqlValue(fields.timeZone!, META)).toBe(wire.time_zone);
  });

  it('writes REST instants as UTC text without offset, null when absent, and leaves time_zone out without tz', () => {
    const { timeZone: _, ...withoutTz } = META;
    expect(JSON.stringify(metaToWire({ ...withoutTz, provenance: 'measured' }))).toBe(
      '{"provenance":"measured","upstream_sources":["demo"],"resolved_datetime_from":"2026-03-29T00:00:00","resolved_datetime_to":"2026-03-30T00:00:00.250","resolution":"1H","pagination":{"total":10,"limit":5,"offset":5,"next_offset":null}}',
    );
    const absent = { upstreamSources: null, range: null, resolution: null, pagination: null };
    const bare: Meta = { provenance: 'derived', ...absent, timeZone: 'Europe/Berlin' };
    expect(metaToWire(bare)).toEqual({
      provenance: 'derived',
      upstream_sources: null,
      resolved_datetime_from: null,
      resolved_datetime_to: null,
      resolution: null,
      pagination: null,
      time_zone: 'Europe/Berlin',
    });
    const fields = graphqlMeta.getFields();
    for (const name of ['upstreamSources', 'resolvedFrom', 'resolvedTo', 'resolution'])
      expect(graphqlValue(fields[name]!, bare), name).toBeNull();
    expect(graphqlValue(fields.timeZone!, { ...bare, timeZone: undefined })).toBeNull();
  });
});
