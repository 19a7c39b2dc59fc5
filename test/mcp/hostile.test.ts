import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { mcpClient, rpcPost } from './support.js';

const rpc = (method: string, params: unknown = {}, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });
const INIT_PARAMS = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };

describe('a hostile pass over /mcp: 4xx or JSON-RPC errors, never a 5xx', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it, { config: { LOG_LEVEL: 'silent', RATE_LIMIT_CAPACITY: 100_000 } });

  it.each([
    ['not JSON', '{"jsonrpc":'],
    ['a JSON number', '42'],
    ['no method', JSON.stringify({ jsonrpc: '2.0', id: 1 })],
    ['a wrong jsonrpc version', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'initialize' })],
    ['an object nested 10,000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ])('%s: a 4xx with a JSON-RPC error', async (_, body) => {
    const res = await rpcPost(t.app, body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const parsed = (await res.json()) as { jsonrpc: string; error: { code: number } };
    expect(parsed.jsonrpc).toBe('2.0');
    expect(parsed.error.code).toBeLessThan(0);
  });

  it('an empty batch has nothing to answer: 202 without a body', async () => {
    const res = await rpcPost(t.app, '[]');
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('an unknown method is a JSON-RPC "method not found"', async () => {
    const res = await rpcPost(t.app, rpc('tools/destroy'));
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { error?: { code: number } };
    expect(body.error?.code).toBe(-32601);
  });

  it('a body past the limit is 413, declared or not', async () => {
    const huge = rpc('tools/call', { name: 'prices', arguments: { zone: ['X'.repeat(200_000)] } });
    expect((await rpcPost(t.app, huge)).status).toBe(413);
  });

  it('huge but admitted arguments are a tool error, quoted short', async () => {
    const client = await mcpClient(t.app);
    const zones = Array.from({ length: 300 }, (_, i) => `Z${i}`);
    const r = await client.callTool({ name: 'prices', arguments: { zone: zones, datetime_from: 'x'.repeat(5000) } });
    expect(r.isError).toBe(true);
    const text = (r.content as { text: string }[])[0]!.text;
    expect(text.length).toBeLessThan(4000);
    await client.close();
  });

  it('GET and DELETE are 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await t.app.yoga.fetch(new URL('http://test/mcp'), {
        method,
        headers: { accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('a missing Accept is 406, a wrong content type 415', async () => {
    expect((await rpcPost(t.app, rpc('initialize', INIT_PARAMS), { accept: 'text/html' })).status).toBe(406);
    expect((await rpcPost(t.app, rpc('initialize', INIT_PARAMS), { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('many sessions at once: each is answered or refused 429, none 5xx, and the server serves afterwards', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        rpcPost(t.app, rpc('tools/call', { name: 'zones', arguments: {} }, i)).then(async (r) => {
          await r.text();
          return r.status;
        }),
      ),
    );
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    const client = await mcpClient(t.app);
    const r = await client.callTool({ name: 'zones', arguments: { zone: ['FR'] } });
    expect((r.structuredContent as { rows: { zone: string }[] }).rows.map((z) => z.zone)).toEqual(['FR']);
    await client.close();
  });
});
