/**
 * Rate-limit refusals as a client reads them off the socket: one Retry-After field, whatever the
 * surface (a GraphQL error's own headers and the access plugin's both name it).
 */
import { request } from 'node:http';
import { describe, expect } from 'vitest';
import { listen } from '../events/sse.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';

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
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 1, RATE_LIMIT_REFILL_PER_SECOND: 0.001 } });
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  let port: string;
  const wire = blockSetup(async () => {
    await server?.close();
  });
  it.beforeEach(() =>
    wire.run(async () => {
      server = await listen(t.app.yoga);
      port = new URL((await server.fetcher('/healthz', {})).url).port;
    }),
  );

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
