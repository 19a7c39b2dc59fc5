/**
 * Rate-limit refusals as a client reads them off the socket: one Retry-After field, whatever the
 * surface (a GraphQL error's own headers and the access plugin's both name it).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../events/sse.js';
import { createTestApp, type TestApp } from '../support/app.js';

/** Status and raw header fields (name, value) of one request on a fresh connection. */
function rawExchange(
  port: string,
  path: string,
  method: string,
  body?: string,
): Promise<{ status: number; fields: [string, string][] }> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json' };
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      res.resume();
      const raw = res.rawHeaders;
      const fields = raw.flatMap((name, i) => (i % 2 === 0 ? [[name, raw[i + 1]!] as [string, string]] : []));
      res.on('end', () => resolve({ status: res.statusCode!, fields }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a 429 on the wire', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let port: string;
  beforeAll(async () => {
    t = await createTestApp('pglite', 'empty', { RATE_LIMIT_CAPACITY: 1, RATE_LIMIT_REFILL_PER_SECOND: 0.001 });
    server = await listen(t.app.yoga);
    port = new URL((await server.fetcher('/healthz', {})).url).port;
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it.each([
    ['GraphQL', '/graphql', 'POST', JSON.stringify({ query: '{ zones { code } }' })],
    ['REST', '/api/v1/zones', 'GET', undefined],
  ])('%s carries exactly one Retry-After field', async (_surface, path, method, body) => {
    await rawExchange(port, path, method, body);
    const refused = await rawExchange(port, path, method, body);
    expect(refused.status).toBe(429);
    const retryAfter = refused.fields.filter(([name]) => name.toLowerCase() === 'retry-after');
    expect(retryAfter).toHaveLength(1);
    expect(Number(retryAfter[0]![1])).toBeGreaterThanOrEqual(1);
  });
});
