/**
 * Caching headers of both surfaces: one well-formed Vary on every REST response (cache miss, hit
 * and 304, every representation and coding), merged with CORS's Origin; quoted strong ETags on
 * GraphQL responses; every parameter validated before a cached answer is sent; Cache-Control that
 * never lets a shared cache keep an answer to a keyed request.
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { PricesQuery } from '../../src/dashboard/queries.js';
import { dashboardDocumentText } from '../support/dashboard.js';
import { createApiKey } from '../../src/security/api-keys.js';
import { DEMO_TEST_NOW } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';

const PAST = '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-08';

/** The field names of a Vary header, lower-cased, in order (a repeated name stays repeated). */
const varyNames = (res: Response): string[] =>
  (res.headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

describe('caching headers', () => {
  let db!: Database;
  let app: App;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    Promise.resolve(app.yoga.fetch(new URL(path, 'http://test'), { method, headers }));

  it.override({ backend: 'pglite', seed: 'demo' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      app = await createApp({ config: testConfig(), db, now: () => DEMO_TEST_NOW.getTime() });
    }),
  );

  const QUERY = {
    query: dashboardDocumentText(PricesQuery),
    variables: { zones: ['DE_LU'], from: '2025-10-01', to: '2025-10-03', resolution: 'HOURLY', first: 48 },
  };
  const post = (headers: Record<string, string> = {}) =>
    Promise.resolve(
      app.yoga.fetch(new URL('/graphql', 'http://test'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(QUERY),
      }),
    );

  const CASES: { name: string; path: string; headers: Record<string, string> }[] = [
    { name: 'JSON', path: PAST, headers: {} },
    { name: 'format=csv', path: `${PAST}&format=csv`, headers: {} },
    { name: 'Accept: text/csv', path: `${PAST}&resolution=1H`, headers: { accept: 'text/csv' } },
    { name: 'gzip', path: `${PAST}&resolution=1D`, headers: { 'accept-encoding': 'gzip' } },
    { name: 'br, CSV', path: `${PAST}&resolution=1D&format=csv`, headers: { 'accept-encoding': 'br' } },
  ];

  it.each(CASES)(
    'REST $name: miss, hit and 304 each carry Vary listing Accept and Accept-Encoding once',
    async ({ path, headers }) => {
      const miss = await get(path, headers);
      await miss.arrayBuffer();
      const hit = await get(path, headers);
      await hit.arrayBuffer();
      const revalidated = await get(path, { ...headers, 'if-none-match': hit.headers.get('etag')! });
      expect([miss.status, hit.status, revalidated.status]).toEqual([200, 200, 304]);
      for (const res of [miss, hit, revalidated])
        expect(varyNames(res).sort()).toEqual(['accept', 'accept-encoding', 'origin', 'x-api-key']);
    },
  );

  it.each(CASES)(
    'REST $name from a browser (Origin): miss, hit and 304 keep Accept and Accept-Encoding beside Origin in Vary',
    async ({ path, headers }) => {
      const browser = { ...headers, origin: 'https://dashboard.example' };
      const miss = await get(`${path}&from=browser`, browser);
      await miss.arrayBuffer();
      const hit = await get(`${path}&from=browser`, browser);
      await hit.arrayBuffer();
      const revalidated = await get(`${path}&from=browser`, { ...browser, 'if-none-match': hit.headers.get('etag')! });
      expect([miss.status, hit.status, revalidated.status]).toEqual([200, 200, 304]);
      for (const res of [miss, hit, revalidated]) {
        expect(varyNames(res).sort()).toEqual(['accept', 'accept-encoding', 'origin', 'x-api-key']);
        expect(res.headers.get('access-control-allow-origin')).toBe('https://dashboard.example');
      }
    },
  );

  it('a CORS preflight is still answered 204 with the allow headers, and varies by Origin', async () => {
    const res = await get(
      '/graphql',
      {
        origin: 'https://dashboard.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-api-key',
      },
      'OPTIONS',
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://dashboard.example');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, x-api-key');
    expect(varyNames(res)).toContain('origin');
  });

  it.each([
    ['format=xlsx', '&format=xlsx'],
    ['resolution=fortnightly', '&resolution=fortnightly'],
  ])(
    'REST: an invalid %s is refused with 422 after the same URL without it was answered from the cache',
    async (_name, bad) => {
      const path = '/api/v1/prices?zone=NL&datetime_from=2025-10-01&datetime_to=2025-10-03';
      const cached = await get(path);
      await cached.arrayBuffer();
      expect((await get(path)).status).toBe(200);
      const res = await get(`${path}${bad}`);
      expect(res.status).toBe(422);
      expect(res.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('REST: an answer to a request with an x-api-key is private and its 304 too; the anonymous one is public and varies by x-api-key', async () => {
    const path = '/api/v1/prices?zone=NL&datetime_from=2025-09-01&datetime_to=2025-09-03';
    const { key } = await createApiKey(db, 'vary test');
    const anonymous = await get(path);
    await anonymous.arrayBuffer();
    expect(anonymous.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(varyNames(anonymous)).toContain('x-api-key');
    const keyed = await get(path, { 'x-api-key': key });
    await keyed.arrayBuffer();
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const revalidated = await get(path, { 'x-api-key': key, 'if-none-match': keyed.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('cache-control')).toMatch(/^private, /);
  });

  it.each(['gzip', 'br'])(
    'a REST 304 to a %s client holding the compressed body names its coded ETag; one holding the identity body gets the base tag',
    async (coding) => {
      const path = '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-03&resolution=native';
      const compressed = await get(path, { 'accept-encoding': coding });
      await compressed.arrayBuffer();
      const coded = compressed.headers.get('etag')!;
      expect(compressed.headers.get('content-encoding')).toBe(coding);
      expect(coded).toMatch(new RegExp(`-${coding}"$`));
      const revalidated = await get(path, { 'accept-encoding': coding, 'if-none-match': coded });
      expect([revalidated.status, revalidated.headers.get('etag')]).toEqual([304, coded]);
      const base = `${coded.slice(0, -(coding.length + 2))}"`;
      const identity = await get(path, { 'accept-encoding': coding, 'if-none-match': base });
      expect([identity.status, identity.headers.get('etag')]).toEqual([304, base]);
    },
  );

  it('REST Arrow (sent uncompressed) varies by Accept only, on miss, hit and 304', async () => {
    const path = `${PAST}&format=arrow`;
    const miss = await get(path, { 'accept-encoding': 'gzip' });
    await miss.arrayBuffer();
    const hit = await get(path, { 'accept-encoding': 'gzip' });
    await hit.arrayBuffer();
    const revalidated = await get(path, { 'if-none-match': hit.headers.get('etag')! });
    expect([miss.status, hit.status, revalidated.status]).toEqual([200, 200, 304]);
    for (const res of [miss, hit, revalidated])
      expect(varyNames(res).sort()).toEqual(['accept', 'origin', 'x-api-key']);
  });

  it('REST HEAD answers carry the same Vary as GET', async () => {
    const head = await get(`${PAST}&resolution=1W`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(varyNames(head).sort()).toEqual(['accept', 'accept-encoding', 'origin', 'x-api-key']);
  });

  describe('GraphQL ETags', () => {
    it('are quoted strong entity-tags (RFC 9110), on the miss and on the cached answer', async () => {
      const miss = await post();
      const hit = await post();
      expect(miss.headers.get('etag')).toMatch(/^"[^"]+"$/);
      expect(hit.headers.get('etag')).toBe(miss.headers.get('etag'));
    });

    it('answer 304 with the quoted tag to If-None-Match in its quoted form, weak form and in a list', async () => {
      const etag = (await post()).headers.get('etag')!;
      for (const inm of [etag, `W/${etag}`, `"other", W/${etag}`]) {
        const res = await post({ 'if-none-match': inm });
        expect(res.status, inm).toBe(304);
        expect(res.headers.get('etag'), inm).toBe(etag);
      }
      expect((await post({ 'if-none-match': '"other"' })).status).toBe(200);
    });

    it('answer 304 to the tag of a compressed answer', async () => {
      const gz = await post({ 'accept-encoding': 'gzip' });
      const etag = gz.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect((await post({ 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304);
    });

    it('are not a 304 for another request: an invalid query or an unexpected parameter sent with a cached tag is refused', async () => {
      const etag = (await post()).headers.get('etag')!;
      const invalid = await get(`/graphql?query=${encodeURIComponent('{ nope }')}`, { 'if-none-match': etag });
      expect(invalid.status).not.toBe(304);
      expect((await invalid.json()).errors).toBeDefined();
      const unexpected = await Promise.resolve(
        app.yoga.fetch(new URL('/graphql', 'http://test'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'if-none-match': etag },
          body: JSON.stringify({ ...QUERY, unexpected: 1 }),
        }),
      );
      expect(unexpected.status).toBe(400);
    });
  });

  describe('GraphQL Cache-Control and Vary', () => {
    const VARIABLES = { zones: ['DE_LU'], from: '2025-10-01', to: '2025-10-03', resolution: 'HOURLY', first: 24 };
    const url = (variables: object = VARIABLES) =>
      `/graphql?query=${encodeURIComponent(dashboardDocumentText(PricesQuery))}&variables=${encodeURIComponent(JSON.stringify(variables))}`;

    it('an anonymous GET read is public with a max-age, and varies by Accept, Accept-Encoding, Origin and x-api-key, on the miss, the hit and the 304', async () => {
      const headers = { origin: 'https://dashboard.example', 'accept-encoding': 'gzip' };
      const miss = await get(url(), headers);
      await miss.arrayBuffer();
      const hit = await get(url(), headers);
      await hit.arrayBuffer();
      const revalidated = await get(url(), { ...headers, 'if-none-match': hit.headers.get('etag')! });
      expect([miss.status, hit.status, revalidated.status]).toEqual([200, 200, 304]);
      for (const res of [miss, hit, revalidated]) {
        expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
        expect(varyNames(res).sort()).toEqual(['accept', 'accept-encoding', 'origin', 'x-api-key']);
      }
    });

    it('an answer to a request with an x-api-key is private', async () => {
      const { key } = await createApiKey(db, 'graphql vary test');
      const res = await get(url(), { 'x-api-key': key });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    });

    it('an answer with errors (HTTP 200 or not) and a POST answer are no-store', async () => {
      const errors = await get(url({ ...VARIABLES, zones: ['XX'] }), { accept: 'application/json' });
      expect((await errors.json()).errors).toBeDefined();
      expect(errors.headers.get('cache-control')).toBe('no-store');
      expect((await get(`/graphql?query=${encodeURIComponent('{ nope }')}`)).headers.get('cache-control')).toBe(
        'no-store',
      );
      expect((await post()).headers.get('cache-control')).toBe('no-store');
    });
  });
});
