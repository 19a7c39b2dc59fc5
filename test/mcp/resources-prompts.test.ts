import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { mcpClient } from './support.js';

describe('MCP resources and prompts', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it, { config: { LOG_LEVEL: 'silent', CLASSIFY_CONGESTION_SHARE: 0.95 } });
  let client: Client;
  const connected = blockSetup(async () => {
    await client?.close();
  });
  it.beforeEach(() =>
    connected.run(async () => {
      client = await mcpClient(t.app);
    }),
  );

  const read = async (uri: string) => {
    const { contents } = await client.readResource({ uri });
    return JSON.parse((contents[0] as { text: string }).text) as unknown;
  };

  it('lists the catalogue, rules and coverage resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'eumarket://catalogue/zones',
      'eumarket://catalogue/borders',
      'eumarket://classification/rules',
      'eumarket://coverage',
    ]);
  });

  it('the zone catalogue is the REST one, with validity and lineage', async () => {
    const rest = (await (await t.get('/api/v1/zones')).json()) as { data: Record<string, unknown>[] };
    const zones = (await read('eumarket://catalogue/zones')) as Record<string, unknown>[];
    expect(zones).toEqual(rest.data);
    const deAtLu = zones.find((z) => z.zone === 'DE_AT_LU')!;
    expect(deAtLu.valid_to).toBe('2018-09-30T22:00:00Z');
    expect(deAtLu.successors).toEqual(expect.arrayContaining(['DE_LU', 'AT']));
  });

  it('the rules carry the thresholds this server applies', async () => {
    const rules = (await read('eumarket://classification/rules')) as {
      thresholds: Record<string, number>;
      flow_types: { flow_type: string }[];
    };
    expect(rules.thresholds).toEqual({ eps_eur_mwh: 0.01, congestion_share: 0.95, min_flow_mw: 1 });
    expect(rules.flow_types.map((f) => f.flow_type)).toEqual([
      'convergence',
      'congestion',
      'counter_intuitive',
      'outage',
    ]);
  });

  it('coverage gives each border the REST span of its flows', async () => {
    const rest = (await (await t.get('/api/v1/borders?border=DE_LU->FR')).json()) as {
      data: { coverage: unknown }[];
    };
    const coverage = (await read('eumarket://coverage')) as { borders: { border: string; coverage: unknown }[] };
    expect(coverage.borders.find((b) => b.border === 'DE_LU->FR')?.coverage).toEqual(rest.data[0]!.coverage);
  });

  it('an unknown resource is a JSON-RPC error listing the known ones', async () => {
    await expect(client.readResource({ uri: 'eumarket://nope' })).rejects.toThrow(/Unknown resource eumarket:\/\/nope/);
  });

  it('prompts name the derived tools and the given arguments; a missing argument is an error', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['counter_intuitive_flows', 'spread_and_congestion', 'price_overview']);
    const { messages } = await client.getPrompt({
      name: 'counter_intuitive_flows',
      arguments: { border: 'DE_LU->FR', datetime_from: '2025-10-01', datetime_to: '2025-10-08' },
    });
    const text = (messages[0]!.content as { text: string }).text;
    expect(text).toContain(
      'Call flow_type_summary with border=["DE_LU->FR"], datetime_from=2025-10-01 and datetime_to=2025-10-08',
    );
    expect(text).toContain('flow_type=["counter_intuitive"]');
    await expect(client.getPrompt({ name: 'price_overview', arguments: {} })).rejects.toThrow(/zone: Field required/);
  });
});
