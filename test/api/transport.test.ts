/**
 * Transport: compressed bodies that decompress to the identical JSON, ETags and 304s, Cache-Control
 * by range, and response caches (REST and GraphQL) that run no SQL on a repeat until data changes.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import { PricesQuery } from '../../src/dashboard/queries.js';
import { dashboardDocumentText } from '../support/dashboard.js';
import type { Database } from '../../src/db/client.js';
import { dataEventsChannel } from '../../src/domain/data-events.js';
import { DEMO_TEST_NOW } from '../support/db.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/** A database that counts the statements run through its query API. */
function counting(db: Database): { db: Database; count: () => number } {
  let n = 0;
  const wrap = <F extends (sql: string, params?: unknown[]) => Promise<unknown>>(run: F): F =>
    ((sql: string, params?: unknown[]) => (n++, run(sql, params))) as F;
  return { db: { ...db, rawQuery: wrap(db.rawQuery), preparedQuery: wrap(db.preparedQuery) }, count: () => n };
}

const PAST = '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-08';
const FLOWS_14D = '/api/v1/flows?datetime_from=2025-10-01&datetime_to=2025-10-15';
const DASHBOARD_PRICES = {
  zones: ['DE_LU', 'FR'],
  from: '2025-10-01',
  to: '2025-10-08',
  resolution: 'HOURLY',
  first: 500,
};

describe.each(TEST_BACKENDS)('transport on %s', (backend) => {
  let db!: Database;
  let app: App;
  let sql: () => number;
  const startApp = async (config: Partial<Config> = {}) => {
    const rec = counting(db);
    sql = rec.count;
    return createApp({ config: testConfig(config), db: rec.db, now: () => DEMO_TEST_NOW.getTime() });
  };
  const get = (path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(app.yoga.fetch(new URL(path, 'http://test'), { headers }));
  const graphql = (body: unknown) =>
    Promise.resolve(
      app.yoga.fetch(new URL('/graphql', 'http://test'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const dataEvent = async () => {
    const before = app.version.current;
    const payload = {
      schema: db.schema,
      kind: 'prices',
      item: 'prices',
      areas: ['DE_LU'],
      from: '2025-10-01T00:00:00Z',
      to: '2025-10-02T00:00:00Z',
    };
    await db.rawQuery('select pg_notify($1, $2)', [dataEventsChannel(db.schema), JSON.stringify(payload)]);
    for (let i = 0; i < 100 && app.version.current === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(app.version.current).toBeGreaterThan(before);
  };

  it.override({ backend, seed: 'demo' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      app = await startApp();
    }),
  );

  it('answers a repeated REST request from the cache without SQL, byte for byte', async () => {
    const first = await get(PAST);
    const text = await first.text();
    const before = sql();
    const again = await get(PAST);
    expect(await again.text()).toBe(text);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(sql()).toBe(before);
    const reordered = await get('/api/v1/prices?datetime_to=2025-10-08&ignored=1&datetime_from=2025-10-01&zone=DE_LU');
    expect(await reordered.text()).toBe(text);
    expect(sql()).toBe(before);
  });

  it('gives every whole JSON response the content-length of its own body, cached or not, hits unchanged by their headers', async () => {
    const urls = [
      PAST,
      '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02',
      '/api/v1/prices?datetime_from=2025-10-01&datetime_to=2025-10-31&resolution=1D',
    ];
    const uncached = await createApp({
      config: testConfig({ RESPONSE_CACHE: false }),
      db,
      now: () => DEMO_TEST_NOW.getTime(),
    });
    try {
      for (const target of [app, uncached]) {
        const seen: [string, number][] = [];
        for (const url of [...urls, ...urls]) {
          const res = await target.yoga.fetch(new URL(url, 'http://test'));
          const bytes = Buffer.byteLength(await res.text());
          expect(Number(res.headers.get('content-length')), url).toBe(bytes);
          seen.push([url, [...res.headers].length]);
        }
        expect(seen.slice(urls.length)).toEqual(seen.slice(0, urls.length));
        expect(new Set(seen.map(([, n]) => n)).size).toBe(1);
      }
    } finally {
      await uncached.close();
    }
  });

  it('answers 304 with ETag and Cache-Control to a matching If-None-Match, a list or *', async () => {
    const etag = (await get(PAST)).headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    for (const inm of [etag, `"nope", ${etag}`, `W/${etag}`, '*']) {
      const res = await get(PAST, { 'if-none-match': inm });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(await res.text()).toBe('');
    }
    expect((await get(PAST, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('runs the SQL again after a data event, and keeps the ETag (a 304) when the answer did not change', async () => {
    const etag = (await get(PAST)).headers.get('etag');
    await dataEvent();
    const before = sql();
    const res = await get(PAST, { 'if-none-match': etag! });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(sql()).toBeGreaterThan(before);
  });

  it('sets Cache-Control by range: settled past an hour, recent or relative a minute, errors no-store', async () => {
    expect((await get(PAST)).headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await get('/api/v1/prices')).headers.get('cache-control')).toBe('public, max-age=60');
    expect(
      (await get('/api/v1/prices?datetime_from=2025-11-01&datetime_to=2025-11-04T13:00:00Z')).headers.get(
        'cache-control',
      ),
    ).toBe('public, max-age=60');
    expect(
      (await get('/api/v1/prices?datetime_from=2025-11-01&datetime_to=2025-11-03T12:00:00Z')).headers.get(
        'cache-control',
      ),
    ).toBe('public, max-age=3600');
    const error = await get('/api/v1/prices?resolution=bogus');
    expect(error.status).toBe(422);
    expect(error.headers.get('cache-control')).toBe('no-store');
    expect(error.headers.get('etag')).toBeNull();
    expect((await get('/api/v1/nowhere')).headers.get('cache-control')).toBe('no-store');
  });

  it.each(['gzip', 'br'])('sends %s bodies that decompress to the identical JSON, with Vary', async (coding) => {
    const plain = await (await get(FLOWS_14D)).text();
    const res = await get(FLOWS_14D, { 'accept-encoding': `${coding}, identity` });
    expect(res.headers.get('content-encoding')).toBe(coding);
    expect(res.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(res.headers.get('etag')).toMatch(new RegExp(`-${coding}"$`));
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThan(plain.length / 4);
    expect((coding === 'gzip' ? gunzipSync(bytes) : brotliDecompressSync(bytes)).toString('utf8')).toBe(plain);
    const revalidated = await get(FLOWS_14D, { 'accept-encoding': coding, 'if-none-match': res.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
  });

  it.each(['gzip', 'br'])(
    'sends whole REST bodies %s-compressed on the miss and on the hit, each decompressing to the plain JSON',
    async (coding) => {
      const path = `/api/v1/prices?zone=FR&datetime_from=2025-10-0${coding === 'gzip' ? 2 : 3}&datetime_to=2025-10-09`;
      const before = sql();
      const bodies: Buffer[] = [];
      for (let i = 0; i < 2; i++) {
        const ran = sql();
        const res = await get(path, { 'accept-encoding': coding });
        expect(sql() > ran, `SQL on request ${i + 1}`).toBe(i === 0);
        expect(res.headers.get('content-encoding')).toBe(coding);
        expect(res.headers.get('vary')).toMatch(/Accept-Encoding/);
        expect(res.headers.get('etag')).toMatch(new RegExp(`-${coding}"$`));
        expect((await get(path, { 'accept-encoding': coding, 'if-none-match': res.headers.get('etag')! })).status).toBe(
          304,
        );
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('content-length')).toBe(String(bytes.length));
        bodies.push(coding === 'gzip' ? gunzipSync(bytes) : brotliDecompressSync(bytes));
      }
      const ran = sql() - before;
      const plain = await (await get(path)).text();
      expect(sql() - before).toBe(ran);
      expect(plain.length).toBeGreaterThan(1_000);
      for (const body of bodies) expect(body.toString('utf8')).toBe(plain);
    },
  );

  it('compresses a GraphQL response that decompresses to the uncompressed one', async () => {
    const body = JSON.stringify({ query: dashboardDocumentText(PricesQuery), variables: DASHBOARD_PRICES });
    const post = (headers: Record<string, string>) =>
      Promise.resolve(
        app.yoga.fetch(new URL('/graphql', 'http://test'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        }),
      );
    const plain = await (await post({})).text();
    const res = await post({ 'accept-encoding': 'br' });
    expect(res.headers.get('content-encoding')).toBe('br');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThan(plain.length / 3);
    expect(brotliDecompressSync(bytes).toString('utf8')).toBe(plain);
  });

  it('leaves small bodies and clients without Accept-Encoding uncompressed', async () => {
    const small = await get('/api/v1/prices?resolution=bogus', { 'accept-encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect((await small.json()).detail).toBeDefined();
    expect((await get(PAST)).headers.get('content-encoding')).toBeNull();
  });

  it('streams the largest page of the data set compressed, in several pieces', async () => {
    const res = await get('/api/v1/flows?datetime_from=2025-09-22&datetime_to=2025-11-05', {
      'accept-encoding': 'gzip',
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(chunks.length).toBeGreaterThan(2);
    const body = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8'));
    expect(body.data.length).toBe(body.meta.pagination.total);
  });

  it('answers a repeated dashboard GraphQL query without SQL until a data event', async () => {
    const request = { query: dashboardDocumentText(PricesQuery), variables: DASHBOARD_PRICES };
    const first = await (await graphql(request)).json();
    expect(first.errors).toBeUndefined();
    expect(first.data.prices.edges.length).toBe(336);
    const before = sql();
    expect(await (await graphql(request)).json()).toEqual(first);
    expect(sql()).toBe(before);
    await dataEvent();
    expect(await (await graphql(request)).json()).toEqual(first);
    expect(sql()).toBeGreaterThan(before);
  });

  it('answers a GraphQL query 304 to the ETag of its result, cached or, after a data event that changed nothing, run again', async () => {
    const request = { query: dashboardDocumentText(PricesQuery), variables: { ...DASHBOARD_PRICES, first: 10 } };
    const etag = (await graphql(request)).headers.get('etag');
    expect(etag).toBeTruthy();
    const revalidate = () =>
      app.yoga.fetch(new URL('/graphql', 'http://test'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'if-none-match': etag! },
        body: JSON.stringify(request),
      });
    expect((await revalidate()).status).toBe(304);
    await dataEvent();
    const before = sql();
    expect((await revalidate()).status).toBe(304);
    expect(sql()).toBeGreaterThan(before);
  });
});

describe('cached answers still cost rate-limit tokens', () => {
  let db!: Database;
  let app: App;
  it.override({ backend: 'pglite', seed: 'demo' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      app = await createApp({
        config: testConfig({ RATE_LIMIT_CAPACITY: 3, RATE_LIMIT_REFILL_PER_SECOND: 0.001 }),
        db,
        now: () => DEMO_TEST_NOW.getTime(),
      });
    }),
  );

  it('refuses the fourth identical GraphQL request with 429 though the last two are cache hits', async () => {
    const post = () =>
      app.yoga.fetch(new URL('/graphql', 'http://test'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: dashboardDocumentText(PricesQuery), variables: DASHBOARD_PRICES }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
