import { describe, expect } from 'vitest';
import { MAX_GRAPHQL_BODY_BYTES } from '../../src/limits.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const QUERY = JSON.stringify({ query: '{ zones { code } }' });

describe('GraphQL request bodies', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it);

  const post = async (body: BodyInit, headers: Record<string, string> = {}) => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
    return {
      status: res.status,
      json: (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] },
    };
  };

  it('runs an operation whose body declares its length', async () => {
    const res = await post(QUERY);
    expect(res.status).toBe(200);
    expect(res.json.errors).toBeUndefined();
  });

  it('refuses a body over the limit with 413 before reading it', async () => {
    const padded = JSON.stringify({ query: `{ zones { code } }${' '.repeat(MAX_GRAPHQL_BODY_BYTES)}` });
    const res = await post(padded);
    expect(res.status).toBe(413);
    expect(res.json.errors?.[0]?.extensions?.code).toBe('REQUEST_ENTITY_TOO_LARGE');
  });

  it('accepts a body of exactly the limit', async () => {
    const query = '{ zones { code } }';
    const exact = JSON.stringify({
      query: query.padEnd(MAX_GRAPHQL_BODY_BYTES - JSON.stringify({ query: '' }).length, ' '),
    });
    expect(Buffer.byteLength(exact)).toBe(MAX_GRAPHQL_BODY_BYTES);
    expect((await post(exact)).status).toBe(200);
  });

  it('asks for a Content-Length (411) when the body is streamed without one', async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(QUERY));
        controller.close();
      },
    });
    const res = await post(stream);
    expect(res.status).toBe(411);
    expect(res.json.errors?.[0]?.extensions?.code).toBe('LENGTH_REQUIRED');
  });

  it('refuses a malformed Content-Length with 400', async () => {
    const res = await post(QUERY, { 'content-length': '15, 15' });
    expect(res.status).toBe(400);
    expect(res.json.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  });
});
