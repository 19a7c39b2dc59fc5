import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect } from 'vitest';
import { declOf } from '../../src/contract/params.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { toolName } from '../../src/mcp/tools.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';
import { DEMO_TEST_NOW } from '../support/db.js';
import { mcpClient } from './support.js';

interface Page {
  meta: unknown;
  total_rows: number;
  row_offset: number;
  returned_rows: number;
  next_row_offset: number | null;
  export_url: string | null;
  rows: unknown[];
}

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** Two days of demo data before the pinned clock: native rows, more than 500 of them for prices and flows. */
const FROM = iso(DEMO_TEST_NOW.getTime() - 3 * day);
const TO = iso(DEMO_TEST_NOW.getTime() - day);

/** Arguments of each tool: the range where it takes one; a zone or border where that keeps the answer small. */
function argsOf(params: readonly string[]): Record<string, unknown> {
  return {
    ...(params.includes('datetime_from') ? { datetime_from: FROM, datetime_to: TO } : {}),
  };
}

function restPath(path: string, args: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, String(x));
  return `${path}?${q}`;
}

describe.each(TEST_BACKENDS)('MCP tools answer as their REST twins on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it, { config: { LOG_LEVEL: 'error', RATE_LIMIT_CAPACITY: 10_000 } });
  let client: Client;
  const connected = blockSetup(async () => {
    await client?.close();
  });
  it.beforeEach(() =>
    connected.run(async () => {
      client = await mcpClient(t.app);
    }),
  );

  it('lists one tool per declared endpoint, read-only and idempotent, with the REST parameters', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(ENDPOINTS.map(toolName));
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(tool.outputSchema?.type).toBe('object');
      const endpoint = ENDPOINTS.find((e) => toolName(e) === tool.name)!;
      const restNames = Object.keys(endpoint.query.shape);
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual([...restNames, 'max_rows', 'row_offset']);
    }
  });

  it.each(ENDPOINTS.map((e) => [toolName(e), e] as const))(
    '%s: the same meta and rows as REST, 500 at most, paged',
    async (name, endpoint) => {
      const args = argsOf((endpoint.params ?? []).map((p) => declOf(p).rest ?? ''));
      const res = await t.get(restPath(endpoint.path, args));
      expect(res.status).toBe(200);
      const rest = (await res.json()) as { meta: unknown; data: unknown[] };
      const first = await client.callTool({ name, arguments: args });
      expect(first.isError ?? false).toBe(false);
      const page = first.structuredContent as unknown as Page;
      expect(page.meta).toEqual(rest.meta);
      expect(page.total_rows).toBe(rest.data.length);
      expect(page.rows).toEqual(rest.data.slice(0, 500));
      expect(page.returned_rows).toBe(Math.min(500, rest.data.length));
      expect(page.next_row_offset).toBe(rest.data.length > 500 ? 500 : null);
      const text = (first.content as { type: string; text: string }[])[0]!.text;
      expect(text).toContain(`of ${rest.data.length}.`);
      if (rest.data.length) expect(text).toContain(`| ${Object.keys(rest.data[0] as object).join(' | ')} |`);
      if (rest.data.length > 500) {
        const second = await client.callTool({ name, arguments: { ...args, row_offset: 500, max_rows: 300 } });
        const next = second.structuredContent as unknown as Page;
        expect(next.rows).toEqual(rest.data.slice(500, 800));
        expect(next.row_offset).toBe(500);
        expect(next.next_row_offset).toBe(rest.data.length > 800 ? 800 : null);
      }
    },
  );

  it('prices and flows answer more than 500 rows over two native days: bounded, with an export link of the same query', async () => {
    const result = await client.callTool({
      name: 'prices',
      arguments: { datetime_from: FROM, datetime_to: TO, zone: ['DE_LU', 'FR', 'NL'] },
    });
    const page = result.structuredContent as unknown as Page;
    expect(page.total_rows).toBeGreaterThan(500);
    expect(page.rows).toHaveLength(500);
    expect(page.export_url).toBe(
      `http://test/api/v1/export/prices?datetime_from=${encodeURIComponent(FROM)}&datetime_to=${encodeURIComponent(TO)}&zone=DE_LU&zone=FR&zone=NL&format=csv`,
    );
    const zones = await client.callTool({ name: 'zones', arguments: {} });
    expect((zones.structuredContent as unknown as Page).export_url).toBeNull();
  });

  it('a bad argument is a tool error with the REST message and suggestion', async () => {
    const res = await t.get('/api/v1/prices?zone=DE_L');
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as { detail: { msg: string }[] }).detail[0]!.msg;
    expect(detail).toContain('DE_LU');
    const result = await client.callTool({ name: 'prices', arguments: { zone: ['DE_L'] } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain(`zone: ${detail}`);
  });

  it('wrong types, bounds and names are tool errors naming the argument', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['flow_duration', { points: 5000 }, 'points: Input should be less than or equal to 1001'],
      ['prices', { resolution: '2H' }, "resolution: Input should be 'auto', 'native', '1H', '1D' or '1W'"],
      ['prices', { max_rows: 501 }, 'max_rows: Input should be less than or equal to 500'],
      ['prices', { row_offset: -1 }, 'row_offset: Input should be greater than or equal to 0'],
      ['prices', { zones: ['FR'] }, 'zones: Unknown argument; did you mean zone?'],
    ];
    for (const [name, args, message] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toContain(message);
    }
  });

  it('an unknown tool is a JSON-RPC error naming the closest tool', async () => {
    await expect(client.callTool({ name: 'price', arguments: {} })).rejects.toThrow(
      /Unknown tool: price\. Did you mean prices/,
    );
  });
});
