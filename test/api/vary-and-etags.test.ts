/**
 * Caching headers of both surfaces: one well-formed Vary on every REST response (cache miss, hit
 * and 304, every representation and coding), and quoted strong ETags on GraphQL responses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { PricesQuery } from '../../src/dashboard/queries.js';
import { createTestDatabase, DEMO_TEST_NOW, type TestDatabase } from '../support/db.js';

const PAST = '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-08';

/** The field names of a Vary header, lower-cased, in order (a repeated name stays repeated). */
const varyNames = (res: Response): string[] => (res.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);

describe('caching headers', () => {
  let t: TestDatabase;
  let app: App;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => Promise.resolve(app.yoga.fetch(new URL(path, 'http://test'), { method, headers }));

  beforeAll(async () => {
    t = await createTestDatabase('pglite', { seed: 'demo' });
    app = await createApp({ config: testConfig(), db: t.db, now: () => DEMO_TEST_NOW.getTime() });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  const CASES: { name: string; path: string; headers: Record<string, string> }[] = [
    { name: 'JSON', path: PAST, headers: {} },
    { name: 'format=csv', path: `${PAST}&format=csv`, headers: {} },
    { name: 'Accept: text/csv', path: `${PAST}&resolution=1H`, headers: { accept: 'text/csv' } },
    { name: 'gzip', path: `${PAST}&resolution=1D`, headers: { 'accept-encoding': 'gzip' } },
    { name: 'br, CSV', path: `${PAST}&resolution=1D&format=csv`, headers: { 'accept-encoding': 'br' } },
  ];

  it.each(CASES)('REST $name: miss, hit and 304 each carry Vary listing Accept and Accept-Encoding once', async ({ path, headers }) => {
    const miss = await get(path, headers);
    await miss.arrayBuffer();
    const hit = await get(path, headers);
    await hit.arrayBuffer();
    const revalidated = await get(path, { ...headers, 'if-none-match': hit.headers.get('etag')! });
    expect([miss.status, hit.status, revalidated.status]).toEqual([200, 200, 304]);
    for (const res of [miss, hit, revalidated]) expect(varyNames(res).sort()).toEqual(['accept', 'accept-encoding']);
  });

  it.each(['gzip', 'br'])('a REST 304 to a %s client holding the compressed body names its coded ETag; one holding the identity body gets the base tag', async (coding) => {
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
  });

  it('REST Arrow (sent uncompressed) varies by Accept only, on miss, hit and 304', async () => {
    const path = `${PAST}&format=arrow`;
    const miss = await get(path, { 'accept-encoding': 'gzip' });
    await miss.arrayBuffer();
    const hit = await get(path, { 'accept-encoding': 'gzip' });
    await hit.arrayBuffer();
    const revalidated = await get(path, { 'if-none-match': hit.headers.get('etag')! });
    expect([miss.status, hit.status, revalidated.status]).toEqual([200, 200, 304]);
    for (const res of [miss, hit, revalidated]) expect(varyNames(res)).toEqual(['accept']);
  });

  it('REST HEAD answers carry the same Vary as GET', async () => {
    const head = await get(`${PAST}&resolution=1W`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(varyNames(head).sort()).toEqual(['accept', 'accept-encoding']);
  });

  describe('GraphQL ETags', () => {
    const QUERY = { query: String(PricesQuery), variables: { zones: ['DE_LU'], from: '2025-10-01', to: '2025-10-03', resolution: 'HOURLY', first: 48 } };
    const post = (headers: Record<string, string> = {}) =>
      Promise.resolve(app.yoga.fetch(new URL('/graphql', 'http://test'), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(QUERY) }));

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
  });
});
