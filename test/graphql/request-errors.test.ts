import { describe, expect } from 'vitest';
import { PARSE_LIMITS } from '../../src/limits.js';
import { VARIABLE_LIMITS } from '../../src/limits.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

type GqlBody = { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };

const RESPONSE_JSON = 'application/graphql-response+json';
const PRICES_BY_RESOLUTION =
  'query Q($v: Resolution) { prices(zones: ["DE_LU"], from: "2025-11-01T00:00", to: "2025-11-01T02:00", resolution: $v) { edges { node { priceEurMwh } } } }';

describe.each(TEST_BACKENDS)('malformed GraphQL requests (%s)', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);

  const send = async (path: string, init: RequestInit = {}, accept = RESPONSE_JSON) => {
    const res = await t.get(path, { ...init, headers: { accept, ...init.headers } });
    return { status: res.status, body: (await res.json()) as GqlBody };
  };
  const post = (body: unknown, accept = RESPONSE_JSON) =>
    send(
      '/graphql',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      accept,
    );

  it('refuses a document nested thousands of levels deep with 400 GRAPHQL_PARSE_FAILED', async () => {
    const { status, body } = await post({ query: `{${' zones {'.repeat(5000)}${' }'.repeat(5001)}` });
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(body.errors?.[0]?.message).toMatch(/nests deeper than/);
  });

  it('refuses a document over the token limit with 400 GRAPHQL_PARSE_FAILED', async () => {
    const { status, body } = await post({ query: `{ ${'__typename '.repeat(PARSE_LIMITS.tokens)}}` });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/tokens/);
  });

  it('refuses deeply nested list values and brackets inside strings do not count', async () => {
    const lists = await post({ query: `{ zones(x: ${'['.repeat(3000)}${']'.repeat(3000)}) { code } }` });
    expect(lists.status).toBe(400);
    expect(lists.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const inString = await post({ query: `{ zone(code: "${'{'.repeat(200)}") { code } }` });
    expect(inString.status).toBe(200);
    expect(inString.body.data).toEqual({ zone: null });
  });

  it.each([5_000, 10_000])(
    'refuses a variable nested %i arrays deep with 400 BAD_REQUEST naming the bound',
    async (depth) => {
      const text = `{"query": ${JSON.stringify(PRICES_BY_RESOLUTION)}, "variables": {"v": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      const { status, body } = await send('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(body.errors?.[0]?.message).toMatch(
        new RegExp(`variables nest deeper than ${VARIABLE_LIMITS.depth} levels`),
      );
    },
  );

  it('refuses variables holding more values than the bound with 400 BAD_REQUEST, and runs those within it', async () => {
    const query = 'query Q($z: [String!]) { zones(zones: $z) { code } }';
    const over = await post({ query, variables: { z: Array.from({ length: VARIABLE_LIMITS.values + 1 }, () => 'x') } });
    expect(over.status).toBe(400);
    expect(over.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(over.body.errors?.[0]?.message).toMatch(
      new RegExp(`variables hold more than ${VARIABLE_LIMITS.values} values`),
    );
    const within = await post({ query: PRICES_BY_RESOLUTION, variables: { v: 'HOURLY' } });
    expect(within.status).toBe(200);
  });

  it('refuses a multipart request whose operations field is not JSON with 400 BAD_REQUEST', async () => {
    const form = new FormData();
    form.append('operations', '{not json');
    form.append('map', '{}');
    const encoded = new Response(form);
    const body = new Uint8Array(await encoded.arrayBuffer());
    const headers = {
      accept: RESPONSE_JSON,
      'content-type': encoded.headers.get('content-type')!,
      'content-length': String(body.byteLength),
    };
    const res = await t.get('/graphql', { method: 'POST', headers, body });
    const answer = (await res.json()) as GqlBody;
    expect(res.status).toBe(400);
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(answer.errors?.[0]?.message).toMatch(/operations/);
  });

  it('refuses `mutation { x }` (no such root type) with 400 and a validation error', async () => {
    const { status, body } = await post({ query: 'mutation { x }' });
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors?.[0]?.message).toMatch(/The mutation operation is not supported by the schema/);
  });

  it('refuses `subscription { x }` (no such field) with 400 and a validation error', async () => {
    const { status, body } = await post({ query: 'subscription { x }' });
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors?.[0]?.message).toMatch(/Cannot query field "x" on type "Subscription"/);
  });

  it('refuses invalid JSON in the variables of a GET with 400 BAD_REQUEST', async () => {
    const query = encodeURIComponent('{ zones { code } }');
    const { status, body } = await send(`/graphql?query=${query}&variables=${encodeURIComponent('{bad')}`);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(body.errors?.[0]?.message).toMatch(/variables/);
  });

  it.each([RESPONSE_JSON, 'application/json'])(
    'refuses a variable that does not coerce with 400 and no data (accept %s)',
    async (accept) => {
      const { status, body } = await post({ query: PRICES_BY_RESOLUTION, variables: { v: 'PHYSICAL' } }, accept);
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.message).toMatch(/Variable "\$v" got invalid value "PHYSICAL"/);
    },
  );

  it('answers an operation refused before execution (over the depth limit) with 400 and no data', async () => {
    const { status, body } = await post({
      query: `{ zone(code: "FR") ${'{ neighbours '.repeat(10)}{ code }${' }'.repeat(10)} }`,
    });
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('runs the operation named in operationName when a document holds several, each time', async () => {
    const query = 'query A { zones { code } } query B { __typename }';
    expect((await post({ query, operationName: 'A' })).body.data).toHaveProperty('zones');
    expect((await post({ query, operationName: 'B' })).body).toEqual({ data: { __typename: 'Query' } });
    expect((await post({ query, operationName: 'A' })).body.data).toHaveProperty('zones');
  });

  it('honours the @skip and @include directives every GraphQL service has', async () => {
    const query = 'query Q($yes: Boolean!) { a: __typename @include(if: $yes) b: __typename @skip(if: $yes) }';
    expect((await post({ query, variables: { yes: true } })).body).toEqual({ data: { a: 'Query' } });
    expect((await post({ query, variables: { yes: false } })).body).toEqual({ data: { b: 'Query' } });
  });

  it('runs the same document once its variable coerces', async () => {
    const { status, body } = await post({ query: PRICES_BY_RESOLUTION, variables: { v: 'HOURLY' } });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });
  it('refuses a JSON body that does not parse with 400 BAD_REQUEST, naming where it broke without a stack', async () => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: RESPONSE_JSON },
      body: '{"query": ',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      errors: { extensions: { code: string; originalError?: Record<string, unknown> } }[];
    };
    expect(body.errors[0]?.extensions.code).toBe('BAD_REQUEST');
    expect(body.errors[0]?.extensions.originalError).toEqual({
      name: 'SyntaxError',
      message: expect.stringMatching(/JSON/),
    });
  });

  it('answers an unsupported body type (415) and an unacceptable Accept (406) with a GraphQL error naming what to send', async () => {
    const xml = await t.get('/graphql', { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<q/>' });
    expect(xml.status).toBe(415);
    expect(xml.headers.get('content-type')).toMatch(/^application\/json/);
    expect(xml.headers.get('x-content-type-options')).toBe('nosniff');
    const unsupported = (await xml.json()) as GqlBody;
    expect(unsupported.errors?.[0]?.extensions?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(unsupported.errors?.[0]?.message).toMatch(/application\/json/);
    const png = await send(
      '/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      },
      'image/png',
    );
    expect(png.status).toBe(406);
    expect(png.body.errors?.[0]?.extensions?.code).toBe('NOT_ACCEPTABLE');
    expect(png.body.errors?.[0]?.message).toMatch(/application\/graphql-response\+json/);
  });
});
