import { getNamedType, type GraphQLField, type GraphQLOutputType, isLeafType, isObjectType } from 'graphql';
import { describe, expect } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';
import { leakIn } from '../support/hostile.js';

/** Names Node's Intl accepts (as links or zones of its own) that PostgreSQL's time zone data leaves out. */
const INTL_ONLY_ZONES = ['US/Pacific-New', 'Canada/East-Saskatchewan', 'SystemV/AST4'];

/** A range over the test demo data, wide enough for daily and weekly buckets. */
const RANGE = { datetime_from: '2025-09-22T00:00:00Z', datetime_to: '2025-11-06T00:00:00Z' };

const TZ_ENDPOINTS = ENDPOINTS.filter((e) => 'tz' in e.query.shape);

/** The resolutions an endpoint is asked with: its default and 1D where it takes one. */
const resolutionsOf = (shape: object): (string | undefined)[] =>
  'resolution' in shape ? [undefined, '1D', '1W'] : [undefined];

/** Every leaf of a type, two levels of objects deep. */
function selection(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named) || depth > 2) return '{ __typename }';
  const parts = Object.values(named.getFields())
    .filter((f) => f.args.length === 0)
    .map((f) => `${f.name} ${selection(f.type, depth + 1)}`.trim());
  return `{ ${parts.join(' ')} }`;
}

const TZ_FIELDS = Object.values(schema.getQueryType()!.getFields()).filter((f) =>
  f.args.some((a) => a.name === 'timeZone'),
);

/** One query of `field` over the demo range with `$tz` as its time zone. */
function operation(field: GraphQLField<unknown, unknown>): string {
  const range = field.args.some((a) => a.name === 'from')
    ? `from: "${RANGE.datetime_from}", to: "${RANGE.datetime_to}", `
    : '';
  return `query Tz($tz: String) { ${field.name}(${range}timeZone: $tz) ${selection(field.type)} }`;
}

describe.each(TEST_BACKENDS)('time zones Intl knows but the database does not, on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 1_000_000 } });

  it('are a 422 on tz from every REST endpoint that takes it', async () => {
    expect(TZ_ENDPOINTS.length).toBeGreaterThanOrEqual(8);
    const problems: string[] = [];
    for (const e of TZ_ENDPOINTS) {
      for (const resolution of resolutionsOf(e.query.shape)) {
        for (const tz of INTL_ONLY_ZONES) {
          const params = new URLSearchParams({ ...RANGE, tz, ...(resolution && { resolution }) });
          const res = await t.get(`${e.path}?${params}`);
          const text = await res.text();
          const locs =
            res.status === 422
              ? (JSON.parse(text) as { detail: { loc: string[] }[] }).detail.map((d) => d.loc.join('.'))
              : [];
          if (res.status !== 422 || !locs.includes('query.tz') || leakIn(text, [tz]))
            problems.push(`${e.path}?${params}: ${res.status} ${text.slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('are a BAD_USER_INPUT on timeZone from every GraphQL field that takes it', async () => {
    expect(TZ_FIELDS.length).toBeGreaterThanOrEqual(8);
    const problems: string[] = [];
    for (const field of TZ_FIELDS) {
      for (const tz of INTL_ONLY_ZONES) {
        const res = await t.get('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
          body: JSON.stringify({ query: operation(field), variables: { tz } }),
        });
        const text = await res.text();
        const body = JSON.parse(text) as {
          errors?: { extensions?: { code?: string; issues?: { param: string }[] } }[];
        };
        const error = body.errors?.[0]?.extensions;
        const ok =
          res.status < 500 &&
          error?.code === 'BAD_USER_INPUT' &&
          error.issues?.some((i) => i.param === 'timeZone') &&
          !leakIn(text, [tz]);
        if (!ok) problems.push(`${field.name}(timeZone: ${tz}): ${res.status} ${text.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('are answered with the zone Intl reads them as, when the database knows it', async () => {
    const res = await t.get(`/api/v1/prices?${new URLSearchParams({ tz: 'US/Pacific-New' })}`);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('did you mean America/Los_Angeles?');
  });

  it('suggests the zone of a city given alone', async () => {
    const res = await t.get('/api/v1/prices?tz=Berlin');
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('did you mean Europe/Berlin?');
  });
});
