import { describe, expect } from 'vitest';
import { createApiKey } from '../../src/security/api-keys.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { mcpClient, rpcPost } from './support.js';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('/mcp has the protection of the other surfaces', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it, {
    config: {
      LOG_LEVEL: 'silent',
      API_KEY_REQUIRED: true,
      RATE_LIMIT_CAPACITY: 4,
      RATE_LIMIT_REFILL_PER_SECOND: 0.001,
      MCP_REQUESTS_IN_FLIGHT_PER_CLIENT: 2,
    },
  });
  let key: string;
  const keyed = blockSetup();
  it.beforeEach(() =>
    keyed.run(async () => {
      ({ key } = await createApiKey(t.db, 'mcp test'));
    }),
  );

  it('without a key or with a bad one: 401', async () => {
    expect((await rpcPost(t.app, INIT)).status).toBe(401);
    expect((await rpcPost(t.app, INIT, { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('a key as Bearer or x-api-key is accepted; each tool call takes one token, and an empty bucket is a tool error', async () => {
    const bearer = await mcpClient(t.app, { authorization: `Bearer ${key}` });
    const { tools } = await bearer.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const header = await mcpClient(t.app, { 'x-api-key': key });
    const outcomes: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await (i % 2 ? header : bearer).callTool({ name: 'zones', arguments: { zone: ['FR'] } });
      outcomes.push(Boolean(r.isError));
      if (r.isError)
        expect((r.content as { text: string }[])[0]!.text).toMatch(/rate limit is exceeded, retry in \d+ s/);
    }
    expect(outcomes).toEqual([false, false, false, false, true, true]);
    const rest = await t.get('/api/v1/zones', { headers: { 'x-api-key': key } });
    expect(rest.status).toBe(429);
    await expect(header.readResource({ uri: 'eumarket://coverage' })).rejects.toThrow(/rate limit is exceeded/);
    await bearer.close();
    await header.close();
  });

  it('a browser Origin other than loopback or listed is 403 before any work; loopback is served', async () => {
    const evil = await rpcPost(t.app, INIT, { 'x-api-key': key, origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { message: string } }).error.message).toContain('Origin');
    const local = await rpcPost(t.app, INIT, { 'x-api-key': key, origin: 'http://localhost:6274' });
    expect(local.status).toBe(200);
  });
});
