import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { arrowChunks } from '../../src/rest/arrow.js';
import { FLOW_ROW } from '../../src/contract/rows/flows.js';
import { BORDER_ROW } from '../../src/contract/rows/catalogue.js';
import { csvChunks, csvColumns, csvField, csvText } from '../../src/rest/csv.js';
import { negotiateFormat } from '../../src/rest/negotiation.js';
import { fileResponse } from '../../src/rest/formats.js';
import { JsonRows } from '../../src/rest/endpoint.js';
import { flowsEndpoint } from '../../src/rest/endpoints/flows.js';
import type { FlowRecord } from '../../src/domain/records.js';

describe('CSV fields (RFC 4180)', () => {
  it('quotes a value holding a comma, a quote, CR or LF and doubles inner quotes', () => {
    expect(csvText('DE_LU->FR')).toBe('DE_LU->FR');
    expect(csvText('a,b')).toBe('"a,b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvText('')).toBe('');
  });

  it('writes null empty, booleans as true/false, numbers as JSON does, lists joined with ;', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField(false)).toBe('false');
    for (const n of [0, -0, 12.895, -25.9275, 1e21, 1e-7, 2458]) expect(csvField(n)).toBe(JSON.stringify(n));
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(['AT', 'BE'])).toBe('AT;BE');
    expect(csvField(['a,b', 'c'])).toBe('"a,b;c"');
  });
});

describe('CSV columns and chunks of a contract', () => {
  it('flattens nested objects into dotted headers in contract order', () => {
    const headers = csvColumns(BORDER_ROW).map((c) => c.header);
    expect(headers.slice(0, 7)).toEqual([
      'border',
      'zone_a',
      'zone_b',
      'coverage.physical_flows.datetime_from',
      'coverage.physical_flows.datetime_to',
      'coverage.physical_flows.native_resolution',
      'coverage.physical_flows.sources',
    ]);
    expect(headers).toHaveLength(3 + 4 * 4 + 2);
    expect(headers.slice(-2)).toEqual(['valid_from', 'valid_to']);
  });

  it('writes a header line, then the rows with CRLF line ends', () => {
    const row: FlowRecord = {
      datetime: new Date('2025-10-26T01:00:00Z'),
      zoneFrom: 'DE_LU',
      zoneTo: 'FR',
      flowType: 'congestion',
      flowInterpolated: false,
      netFlowMw: 1234.56789,
      priceFrom: 80.12345,
      priceTo: null,
      capacityMw: 3000,
      hours: 1,
      derived: false,
    };
    const text = [...csvChunks(FLOW_ROW, [row])].join('');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'datetime,bidding_zone_from,bidding_zone_to,flow_type,flow_interpolated,net_flow_mw,price_from,price_to,price_delta,capacity_mw,hours',
    );
    expect(lines[1]).toBe('2025-10-26T01:00:00Z,DE_LU,FR,congestion,false,1234.568,80.1235,,,3000,1');
    expect(lines[2]).toBe('');
  });
});

describe('Accept negotiation', () => {
  it.each([
    [null, 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['text/csv', 'csv'],
    ['text/*', 'csv'],
    ['text/csv, */*;q=0.8', 'csv'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'json'],
    ['text/csv;q=0.5, application/json', 'json'],
    ['application/json;q=0.5, text/csv', 'csv'],
    ['text/csv;q=0, */*', 'json'],
    ['TEXT/CSV; charset=utf-8', 'csv'],
    ['text/csv, application/json', 'csv'],
    ['application/json, text/csv', 'json'],
    ['image/png', 'json'],
    ['garbage', 'json'],
    ['application/vnd.apache.arrow.stream', 'arrow'],
    ['application/vnd.apache.arrow.stream;q=0.9, text/csv;q=0.8, */*;q=0.1', 'arrow'],
    ['application/*', 'json'],
  ] as const)('Accept %s gives %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });

  it('answers the same for a header asked again, after hundreds of other headers and for headers too long to remember', () => {
    const csvFirst = 'text/csv, application/json';
    expect(negotiateFormat(csvFirst)).toBe('csv');
    for (let i = 0; i < 600; i++)
      expect(negotiateFormat(`application/x-${i}, text/csv;q=0.${(i % 9) + 1}`)).toBe('csv');
    expect(negotiateFormat(csvFirst)).toBe('csv');
    expect(negotiateFormat('application/json, text/csv')).toBe('json');
    const long = `${'application/x-unknown;q=0.1, '.repeat(40)}application/vnd.apache.arrow.stream`;
    expect(negotiateFormat(long)).toBe('arrow');
    expect(negotiateFormat(long)).toBe('arrow');
  });
});

describe('the streamed CSV response', () => {
  it('writes a 20,000-row page as it is read: the header first, then 1,000 rows per read, at most one chunk ahead', async () => {
    const base: FlowRecord = {
      datetime: new Date('2025-10-26T01:00:00Z'),
      zoneFrom: 'DE_LU',
      zoneTo: 'FR',
      flowType: 'convergence',
      flowInterpolated: false,
      netFlowMw: 100,
      priceFrom: 50,
      priceTo: 40,
      capacityMw: 3000,
      hours: 1,
      derived: false,
    };
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ ...base, netFlowMw: i }));
    let produced = 0;
    const counted = rows.map(
      (r) => new Proxy(r, { get: (t, k) => (k === 'netFlowMw' && produced++, t[k as keyof FlowRecord]) }),
    );
    const meta = {
      provenance: 'measured' as const,
      upstream_sources: ['demo'],
      resolved_datetime_from: null,
      resolved_datetime_to: null,
      resolution: 'native' as const,
      pagination: null,
    };
    const res = await fileResponse(
      'csv',
      flowsEndpoint,
      meta,
      new JsonRows(() => [][Symbol.iterator](), { contract: FLOW_ROW, rows: counted }),
      new URL('http://x/api/v1/flows?format=csv'),
    );
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const first = decoder.decode((await reader.read()).value);
    expect(first).toBe(
      `${csvColumns(FLOW_ROW)
        .map((c) => c.header)
        .join(',')}\r\n`,
    );
    // The stream keeps at most one chunk ahead of its reader (highWaterMark 1): whether that chunk
    // is built before this line depends on the runtime's scheduling (Node 22 later, Node 24 sooner).
    expect(produced).toBeLessThanOrEqual(1_000);
    const second = decoder.decode((await reader.read()).value);
    expect(second.split('\r\n')).toHaveLength(1_001);
    expect(produced).toBeLessThanOrEqual(2_000);
    let reads = 2;
    while (!(await reader.read()).done) reads++;
    expect(reads).toBe(1 + 20);
    expect(produced).toBe(20_000);
  });
});

describe('the Arrow IPC stream of a contract', () => {
  it('types the columns from the contract and reads back an empty page as zero rows', () => {
    const empty = tableFromIPC([...arrowChunks(FLOW_ROW, [])]);
    expect(empty.numRows).toBe(0);
    expect(empty.schema.fields.map((f) => `${f.name}:${String(f.type)}${f.nullable ? '?' : ''}`)).toEqual([
      'datetime:Timestamp<MILLISECOND, UTC>',
      'bidding_zone_from:Utf8',
      'bidding_zone_to:Utf8',
      'flow_type:Utf8',
      'flow_interpolated:Bool',
      'net_flow_mw:Float64',
      'price_from:Float64?',
      'price_to:Float64?',
      'price_delta:Float64?',
      'capacity_mw:Float64?',
      'hours:Int32',
    ]);
  });

  it('writes nested coverage as structs and null objects as null', () => {
    const span = {
      datetimeFrom: new Date('2025-01-01T00:00:00Z'),
      datetimeTo: new Date('2025-02-01T00:00:00Z'),
      nativeResolution: 'PT60M',
      sources: ['demo'],
    };
    const row = {
      key: 'DE_LU->FR',
      a: 'DE_LU',
      b: 'FR',
      coverage: { physicalFlows: span, scheduledFlows: null, ntc: span, outages: null },
    };
    const table = tableFromIPC([...arrowChunks(BORDER_ROW, [row as never])]);
    const back = JSON.parse(JSON.stringify(table.get(0))) as Record<string, any>;
    expect(back.coverage.physical_flows).toEqual({
      datetime_from: Date.UTC(2025, 0, 1),
      datetime_to: Date.UTC(2025, 1, 1),
      native_resolution: 'PT60M',
      sources: ['demo'],
    });
    expect(back.coverage.scheduled_flows).toBeNull();
  });
});
