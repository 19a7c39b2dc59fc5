import { describe, expect } from 'vitest';
import { routePath } from '../../src/http/paths.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const ROUTES = [
  '/healthz',
  '/readyz',
  '/metrics',
  '/api/v1/prices?zone=DE_LU',
  '/api/v1/openapi.json',
  '/api/v1/docs',
  `/graphql?query=${encodeURIComponent('{ zones { code } }')}`,
];

function withSlash(route: string, slashes = '/'): string {
  const [path, query] = route.split('?');
  return query === undefined ? `${path}${slashes}` : `${path}${slashes}?${query}`;
}

describe('one trailing slash is ignored on every route', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it, { config: { RATE_LIMIT_REFILL_PER_SECOND: 0.001 } });

  it.each(ROUTES)('%s answers the same with a trailing slash', async (route) => {
    const plain = await t.get(route);
    const slashed = await t.get(withSlash(route));
    expect(plain.status).toBe(200);
    expect(slashed.status).toBe(200);
    expect(slashed.headers.get('content-type')).toBe(plain.headers.get('content-type'));
  });

  it.each(ROUTES.filter((r) => !r.startsWith('/graphql')))(
    '%s names no route with two trailing slashes (404)',
    async (route) => {
      const res = await t.get(withSlash(route, '//'));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    },
  );

  it('leaves probes and scraping unmetered with the slash too', async () => {
    const before = (await t.get('/healthz')).headers.get('ratelimit-remaining');
    await t.get('/healthz/');
    await t.get('/metrics/');
    expect((await t.get('/readyz/')).headers.get('ratelimit-remaining')).toBe(before);
  });

  it('maps a path to its route', () => {
    expect(routePath('/healthz/')).toBe('/healthz');
    expect(routePath('/healthz')).toBe('/healthz');
    expect(routePath('/')).toBe('/');
    expect(routePath('/healthz//')).toBe('/healthz/');
  });
});
