import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { describe, expect } from 'vitest';
import { ConfigError, loadConfig, testConfig } from '../../src/config.js';
import { useOperationPolicy } from '../../src/graphql/plugins/use-operation-policy.js';
import { schema } from '../../src/graphql/schema/index.js';
import { graphql } from '../gql/index.js';
import { blockApp, type TestApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const ZoneCodes = graphql(`
  query ZoneCodes($first: Int) { prices(zones: ["DE_LU"], from: "2025-11-01T00:00", to: "2025-11-01T03:00", resolution: HOURLY, first: $first) { edges { node { datetime priceEurMwh } } } }
`);
const MANIFEST = new URL('../gql/persisted-documents.json', import.meta.url).pathname;
const documentId = (ZoneCodes as unknown as { __meta__: { hash: string } }).__meta__.hash;
const INTROSPECTION = '{ __schema { queryType { name } } }';

type GqlBody = {
  data?: { prices?: { edges: unknown[] } } | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

async function post(app: TestApp, body: unknown): Promise<{ status: number; body: GqlBody }> {
  const res = await app.get('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as GqlBody };
}

describe('persisted operations only', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const app = blockApp(it, {
    config: {
      PERSISTED_OPERATIONS_FILE: MANIFEST,
      PERSISTED_OPERATIONS_ONLY: true,
    },
  });

  it('runs a manifest operation sent by documentId, with its variables', async () => {
    const { status, body } = await post(app, { documentId, variables: { first: 2 } });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.prices?.edges).toHaveLength(2);
  });

  it('runs a manifest operation sent by documentId over GET, as over POST', async () => {
    const search = new URLSearchParams({ documentId, variables: JSON.stringify({ first: 2 }) });
    const res = await app.get(`/graphql?${search}`, { headers: { accept: 'application/graphql-response+json' } });
    const body = (await res.json()) as GqlBody;
    expect(res.status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body).toEqual((await post(app, { documentId, variables: { first: 2 } })).body);
  });

  it('refuses an unknown id over GET with 400 PERSISTED_QUERY_NOT_FOUND', async () => {
    const res = await app.get('/graphql?documentId=sha256%3A0000');
    expect(res.status).toBe(400);
    expect(((await res.json()) as GqlBody).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('runs it by the Apollo persistedQuery extension too', async () => {
    const { body } = await post(app, {
      extensions: { persistedQuery: { version: 1, sha256Hash: documentId } },
      variables: { first: 3 },
    });
    expect(body.data?.prices?.edges).toHaveLength(3);
  });

  it('refuses a document sent as text with 400 PERSISTED_QUERY_ONLY', async () => {
    const { status, body } = await post(app, { query: print(ZoneCodes) });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('refuses an unknown id with 400 PERSISTED_QUERY_NOT_FOUND', async () => {
    const { status, body } = await post(app, { documentId: 'sha256:0000' });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('leaves the REST surface alone', async () => {
    expect((await app.get('/api/v1/prices?zone=DE_LU')).status).toBe(200);
  });
});

describe('persisted operations beside arbitrary ones, introspection off', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const app = blockApp(it, { config: { PERSISTED_OPERATIONS_FILE: MANIFEST, GRAPHQL_INTROSPECTION: false } });

  it('answers the same rows by id and by text', async () => {
    const byId = await post(app, { documentId, variables: { first: 3 } });
    const byText = await post(app, { query: print(ZoneCodes), variables: { first: 3 } });
    expect(byId.body.data?.prices?.edges).toHaveLength(3);
    expect(byId.body).toEqual(byText.body);
  });

  it('refuses introspection with a validation error', async () => {
    const { body } = await post(app, { query: INTROSPECTION });
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/introspection/i);
  });
});

describe('introspection off, whatever the source of the document', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
  const manifest = join(dir, 'with-introspection.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      schema: INTROSPECTION,
      type: '{ __type(name: "Query") { fields { name } } }',
      zones: '{ zones { code } }',
    }),
  );
  const app = blockApp(it, { config: { PERSISTED_OPERATIONS_FILE: manifest, GRAPHQL_INTROSPECTION: false } });

  it.each(['schema', 'type'])('refuses the introspection operation %s of the persisted manifest', async (id) => {
    const { body } = await post(app, { documentId: id });
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/introspection/i);
  });

  it('still runs the manifest operations that do not introspect', async () => {
    const { status, body } = await post(app, { documentId: 'zones' });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  it('names no field, argument or type in validation errors (no "Did you mean")', async () => {
    const { body } = await post(app, { query: '{ zonez { code } zone(code: "FR", cod: "FR") { code } }' });
    const messages = body.errors?.map((e) => e.message).join('\n') ?? '';
    expect(messages).toMatch(/Cannot query field "zonez"/);
    expect(messages).not.toMatch(/Did you mean|"zones"|"code"/);
  });
});

describe('default policy', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const app = blockApp(it, { dashboardDir: join(tmpdir(), 'no-dashboard-built') });

  it('suggests close names in validation errors while introspection is on', async () => {
    const { body } = await post(app, { query: '{ zonez { code } }' });
    expect(body.errors?.[0]?.message).toMatch(/Did you mean "zone" or "zones"\?/);
  });

  it('allows introspection and has no persisted operations', async () => {
    expect((await post(app, { query: INTROSPECTION })).body).toEqual({
      data: { __schema: { queryType: { name: 'Query' } } },
    });
    const { status, body } = await post(app, { documentId });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/Unexpected parameter "documentId"/);
  });
});

describe('policy configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifest-'));

  it('fails fast on PERSISTED_OPERATIONS_ONLY without a manifest', () => {
    expect(() => loadConfig({ PERSISTED_OPERATIONS_ONLY: 'true' })).toThrow(
      /PERSISTED_OPERATIONS_ONLY: needs PERSISTED_OPERATIONS_FILE/,
    );
    expect(() => useOperationPolicy(testConfig({ PERSISTED_OPERATIONS_ONLY: true }), schema)).toThrow(ConfigError);
  });

  it('names each manifest entry that no longer fits the schema', () => {
    const file = join(dir, 'stale.json');
    writeFileSync(
      file,
      JSON.stringify({ good: '{ zones { code } }', stale: '{ zones { nope } }', broken: '{ zones {' }),
    );
    const error = (() => {
      try {
        useOperationPolicy(testConfig({ PERSISTED_OPERATIONS_FILE: file }), schema);
      } catch (err) {
        return err as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toMatch(/stale: Cannot query field "nope"/);
    expect(error?.message).toMatch(/broken: Syntax Error/);
    expect(error?.message).not.toMatch(/good/);
  });

  it('refuses a manifest that is not an object of documents', () => {
    const file = join(dir, 'list.json');
    writeFileSync(file, '["{ zones { code } }"]');
    expect(() => useOperationPolicy(testConfig({ PERSISTED_OPERATIONS_FILE: file }), schema)).toThrow(
      /expected an object of id -> document text/,
    );
    expect(() =>
      useOperationPolicy(testConfig({ PERSISTED_OPERATIONS_FILE: join(dir, 'missing.json') }), schema),
    ).toThrow(/cannot read it as JSON/);
  });
});
