import { describe, expect, it } from 'vitest';
import { declOf, LINEAGE, POINTS, RANGE, ZONES } from '../../src/contract/params.js';
import { PRICE_ROW } from '../../src/contract/rows/prices.js';
import { rowsEndpoint } from '../../src/rest/endpoint.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { restQueryOf, toolsOf } from '../../src/mcp/tools.js';

describe('MCP tools derive from the endpoint declarations', () => {
  const tools = toolsOf(ENDPOINTS);

  it('every declared endpoint is a tool whose arguments are its REST parameters with their defaults, bounds and values', () => {
    expect(tools).toHaveLength(ENDPOINTS.length);
    for (const [i, endpoint] of ENDPOINTS.entries()) {
      const tool = tools[i]!;
      expect(tool.endpoint).toBe(endpoint);
      const props = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
      const declared = (endpoint.params ?? []).map(declOf).filter((p) => p.rest !== undefined);
      expect(Object.keys(props).slice(0, declared.length)).toEqual(declared.map((p) => p.rest));
      for (const p of declared) {
        const s = props[p.rest!]!;
        expect(s.default, `${tool.name}.${p.rest} default`).toEqual('default' in p ? p.default : undefined);
        if (p.kind === 'int' || p.kind === 'float') {
          expect([s.type, s.minimum, s.maximum]).toEqual([p.kind === 'int' ? 'integer' : 'number', p.min, p.max]);
        }
        if (p.kind === 'enum') expect(s.enum).toEqual(Object.keys(p.values.values));
        if (p.kind === 'enums') expect((s.items as { enum: string[] }).enum).toEqual(Object.keys(p.values.values));
        if (p.kind === 'boolean') expect(s.type).toBe('boolean');
        expect(String(s.description)).not.toBe('');
      }
    }
  });

  it('descriptions carry the units of the declarations', () => {
    const scatter = tools.find((t) => t.name === 'flow_price_scatter')!;
    const props = scatter.inputSchema.properties as Record<string, { description: string }>;
    expect(props.flow_bin_mw!.description).toContain('MW');
    expect(props.price_bin!.description).toContain('EUR/MWh');
  });

  it('a newly declared endpoint is a tool with no MCP code of its own', () => {
    const extra = rowsEndpoint({
      path: '/api/v1/price-sample',
      reads: ['prices'],
      summary: 'A sample',
      description: 'Declared only here.',
      params: [...RANGE, ZONES, POINTS, LINEAGE],
      contract: PRICE_ROW,
      rows: async () => ({ meta: {} as never, rows: [] }),
    });
    const tool = toolsOf([...ENDPOINTS, extra]).at(-1)!;
    expect(tool.name).toBe('price_sample');
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tool.inputSchema.properties).toMatchObject({
      points: { type: 'integer', minimum: 2, maximum: 1001, default: 101 },
      lineage: { type: 'boolean', default: false },
    });
    expect(restQueryOf(tool, { zone: 'DE_LU', points: 11, lineage: true, max_rows: 5, nope: 1 })).toEqual({
      query: { zone: ['DE_LU'], points: '11', lineage: 'true' },
      paging: { max_rows: 5 },
      unknown: ['nope'],
    });
  });
});
