import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import { operationIdOf, TAG_DESCRIPTIONS, tagOf, tagsOf } from '../../src/rest/openapi-parts.js';
import { MetaSchema } from '../../src/rest/schemas.js';

const doc = buildOpenApi(ENDPOINTS) as any;
const operations = ENDPOINTS.map((e) => [e.path, doc.paths[e.path].get] as const);

describe('the OpenAPI document as a contract', () => {
  it('passes the Redocly recommended ruleset with examples checked as errors, the missing licence its only warning', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: { 'no-invalid-media-type-examples': 'error', 'no-invalid-parameter-examples': 'error' },
    });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const summary = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(summary).toEqual(['warn info-license #/info: Info object should contain `license` field.']);
  });

  it('names every operation with a unique camelCase operationId and one declared tag', () => {
    const ids = operations.map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^get[A-Z][A-Za-z0-9]*$/);
    expect(doc.paths['/api/v1/prices'].get.operationId).toBe('getPrices');
    expect(doc.paths['/api/v1/flow-type-summary'].get.operationId).toBe('getFlowTypeSummary');
    expect(doc.tags.map((t: any) => t.name)).toEqual(['Prices', 'Flows', 'Aggregates', 'Catalogue']);
    for (const [, op] of operations) expect(doc.tags.map((t: any) => t.name)).toContain(op.tags[0]);
  });

  it('derives an id and a tag from the path of an endpoint that declares neither', () => {
    expect(operationIdOf({ path: '/api/v1/zones' })).toBe('getZones');
    expect(tagOf({ path: '/api/v1/zones' })).toBe('Zones');
    expect(operationIdOf({ path: '/api/v1/zone-import-export' })).toBe('getZoneImportExport');
    expect(tagOf({ path: '/api/v1/zone-import-export' })).toBe('Zone import export');
  });

  it('describes a tag outside the known ones by the summary of its first endpoint, after the known ones', () => {
    const tags = tagsOf([
      { path: '/api/v1/zones', summary: 'Bidding zones' },
      { path: '/api/v1/prices', tag: 'Prices', summary: 'Day-ahead prices' },
    ]);
    expect(tags).toEqual([
      { name: 'Prices', description: TAG_DESCRIPTIONS.Prices },
      { name: 'Zones', description: 'Bidding zones' },
    ]);
  });

  it('declares the x-api-key header scheme as optional: anonymous or keyed', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.security).toEqual([{}, { apiKey: [] }]);
  });

  it('describes the error responses with shared bodies, Retry-After on 429, caching and RateLimit headers on 200, and 304', () => {
    for (const [, op] of operations) {
      expect(Object.keys(op.responses).sort()).toEqual(['200', '304', '401', '422', '429', '503', '504']);
      expect(Object.keys(op.responses['304'].headers)).toEqual(['ETag', 'Cache-Control', 'Surrogate-Key', 'Cache-Tag']);
      for (const status of ['401', '429', '503', '504']) {
        expect(op.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      }
      expect(Object.keys(op.responses['429'].headers)).toContain('Retry-After');
      const meta = [
        'X-Provenance',
        'X-Upstream-Sources',
        'X-Resolved-Datetime-From',
        'X-Resolved-Datetime-To',
        'X-Resolution',
        'X-Time-Zone',
      ];
      const paging =
        op.operationId === 'getFlows' ? ['X-Total-Count', 'X-Limit', 'X-Offset', 'X-Next-Offset', 'Link'] : [];
      expect(Object.keys(op.responses['200'].headers)).toEqual([
        'ETag',
        'Cache-Control',
        'Surrogate-Key',
        'Cache-Tag',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        ...meta,
        ...paging,
      ]);
    }
    expect(doc.components.schemas.HTTPValidationError.properties.detail.items.required).toEqual(['loc', 'msg', 'type']);
  });

  it.each(ENDPOINTS.map((e) => [e.path, e] as const))('%s carries an example its own schemas accept', (path, e) => {
    expect(e.example, `${path} has no example`).toBeDefined();
    const query = e.query.safeParse(e.example?.query);
    expect(query.success, JSON.stringify(query.error?.issues)).toBe(true);
    const envelope = z.object({ meta: MetaSchema, data: z.array(e.row).min(1) }).strict();
    const response = envelope.safeParse(e.example?.response);
    expect(response.success, JSON.stringify(response.error?.issues)).toBe(true);
    const op = doc.paths[path].get;
    expect(op.responses['200'].content['application/json'].example).toEqual(e.example?.response);
    const csv: string = op.responses['200'].content['text/csv'].example;
    const [header, ...lines] = csv.split('\r\n');
    expect(lines).toHaveLength((e.example?.response.data.length ?? 0) + 1);
    expect(header?.split(',')[0]).toBe(Object.keys(e.example?.response.data[0] ?? {})[0]);
    expect(op.parameters.find((p: any) => p.name === 'format')?.schema.enum).toEqual(['json', 'csv', 'arrow']);
    expect(op.responses['200'].content['application/vnd.apache.arrow.stream'].schema).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    for (const [name, value] of Object.entries(e.example?.query ?? {})) {
      expect(op.parameters.find((p: any) => p.name === name)?.example).toEqual(value);
    }
  });

  it('generates a TypeScript client whose typed use compiles under strict', async () => {
    const types = astToString(await openapiTS(doc));
    const dir = await mkdtemp(join(tmpdir(), 'openapi-client-'));
    try {
      await writeFile(join(dir, 'schema.ts'), types);
      await writeFile(join(dir, 'usage.ts'), USAGE);
      const program = ts.createProgram([join(dir, 'usage.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        types: [],
        skipLibCheck: true,
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);
});

/** A client's use of the generated types; `@ts-expect-error` lines prove the types are not `any`. */
const USAGE = `
import type { operations, paths } from './schema';
type Prices = paths['/api/v1/prices']['get'];
type PriceRow = Prices['responses'][200]['content']['application/json']['data'][number];
const row: PriceRow = { datetime: '2025-10-20T12:00:00Z', bidding_zone: 'DE_LU', price_mwh: 11.14, interpolated: false, year: 2025 };
const price: number = row.price_mwh;
const query: NonNullable<Prices['parameters']['query']> = { zone: ['DE_LU'], resolution: '1H', format: 'csv' };
const csv: Prices['responses'][200]['content']['text/csv'] = 'datetime,bidding_zone\\r\\n';
// @ts-expect-error format is json, csv or arrow
const badFormat: NonNullable<Prices['parameters']['query']> = { format: 'xml' };
// @ts-expect-error resolution is an enum
const badQuery: NonNullable<Prices['parameters']['query']> = { resolution: '2H' };
// @ts-expect-error price_mwh is a number
const badPrice: string = row.price_mwh;
type FlowType = operations['getFlows']['responses'][200]['content']['application/json']['data'][number]['flow_type'];
const flowType: FlowType = 'counter_intuitive';
const tooMany: operations['getPrices']['responses'][429]['content']['application/json'] = { detail: 'retry in 3 s' };
const invalid: operations['getPrices']['responses'][422]['content']['application/json'] = { detail: [{ loc: ['query', 'zone'], msg: 'unknown', type: 'value_error' }] };
export const used = [price, query, csv, badFormat, badQuery, badPrice, flowType, tooMany, invalid];
`;
