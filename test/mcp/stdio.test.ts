import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { toolName } from '../../src/mcp/tools.js';
import { CHILD_PATH } from '../support/env.js';
import { ROOT } from '../support/processes.js';

interface Page {
  total_rows: number;
  rows: Record<string, unknown>[];
}

describe('npm run mcp: the MCP server over stdio', () => {
  let client: Client;
  let stderr = '';
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/mcp/stdio.ts'],
      cwd: ROOT,
      env: { PATH: CHILD_PATH, PGLITE_DIR: 'memory://', SEED_DEMO: 'true', DEMO_HISTORY_DAYS: '2', LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    client = new Client({ name: 'eumarket-stdio-test', version: '1.0.0' });
    await client.connect(transport);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
  });

  it('npm run mcp starts the built stdio entry, its build output kept off stdout', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.mcp).toBe('exec node dist/src/mcp/stdio.js');
    expect(scripts.premcp).toMatch(/1>&2$/);
  });

  it('lists the tools, resources and prompts, and answers a tool call with logs on stderr only', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ENDPOINTS.map(toolName));
    expect((await client.listResources()).resources).toHaveLength(4);
    expect((await client.listPrompts()).prompts).toHaveLength(3);
    const zones = await client.callTool({ name: 'zones', arguments: { zone: ['de_lu'] } });
    const page = zones.structuredContent as unknown as Page;
    expect(page.rows.map((z) => [z.zone, z.eic])).toEqual([['DE_LU', '10Y1001A1001A82H']]);
    const prices = await client.callTool({ name: 'prices', arguments: { zone: ['FR'], datetime_from: 'now-1d' } });
    expect(prices.isError ?? false).toBe(false);
    const rows = (prices.structuredContent as unknown as Page).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.bidding_zone === 'FR')).toBe(true);
    const bad = await client.callTool({ name: 'prices', arguments: { zone: ['FRA'] } });
    expect(bad.isError).toBe(true);
    expect(stderr).toContain('"msg":"mcp tool call"');
    expect(stderr).toContain('"tool":"zones"');
  });
});
