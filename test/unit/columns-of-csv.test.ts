/**
 * Exports made from the database's CSV lines on PostgreSQL: column batches (Arrow and Parquet of
 * flows) with every REST field of a row in its typed column, read back by apache-arrow, and NDJSON
 * lines; an empty cell of a nullable field is null in both.
 */
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { restFields } from '../../src/contract/fields.js';
import { FLOW_ROW } from '../../src/contract/rows/flows.js';
import { arrowColumnWriter } from '../../src/rest/arrow.js';
import { columnsOfCsv, csvColumnBatches } from '../../src/rest/export/columns-of-csv.js';
import { typedContract } from '../../src/rest/export/formats.js';
import { ndjsonOfCsv } from '../../src/rest/export/ndjson-of-csv.js';

const NAMES = restFields(FLOW_ROW).map((f) => f.rest);
const UTC = new Map([['time_zone', { kind: 'constant', value: 'UTC' } as const]]);

/** Two flow rows as the database writes them, by REST name (absent: NULL). */
const ROWS: Record<string, string>[] = [
  {
    datetime: '2025-10-20T06:00:00Z',
    bidding_zone_from: 'DE_LU',
    bidding_zone_to: 'FR',
    flow_type: 'congestion',
    flow_interpolated: 'false',
    net_flow_mw: '1234.567',
    price_from: '50.1',
    price_to: '-3.0001',
    price_delta: '-53.1001',
    capacity_mw: '3000',
    hours: '1',
  },
  {
    datetime: '2025-10-20T07:00:00Z',
    bidding_zone_from: 'FR',
    bidding_zone_to: 'ES',
    flow_type: 'outage',
    flow_interpolated: 'true',
    net_flow_mw: '0',
    hours: '1',
  },
];
const csvText = (rows: readonly Record<string, string>[]) =>
  rows.map((r) => `${NAMES.map((n) => r[n] ?? '').join(',')}\r\n`).join('');

describe('columns read from the database CSV lines', () => {
  it('gives each field its typed column and an empty nullable cell null, as apache-arrow reads them back', async () => {
    expect(NAMES).toEqual(Object.keys(ROWS[0]!));
    const read = columnsOfCsv(FLOW_ROW, UTC)!;
    const lines = async function* () {
      const text = csvText(ROWS);
      yield Buffer.from(text.slice(0, 17));
      yield Buffer.from(text.slice(17));
    };
    const batches = [];
    for await (const b of csvColumnBatches(lines(), read, 2, 10)) batches.push(b);
    expect(batches.map((b) => b.length)).toEqual([2]);
    const writer = arrowColumnWriter(typedContract(FLOW_ROW));
    const bytes = Buffer.concat([writer.batch(batches[0]!), writer.tail()]);
    const rows = tableFromIPC(bytes)
      .toArray()
      .map((r: any) => r.toJSON());
    expect(rows).toEqual([
      {
        datetime: Date.UTC(2025, 9, 20, 6),
        bidding_zone_from: 'DE_LU',
        bidding_zone_to: 'FR',
        flow_type: 'congestion',
        flow_interpolated: false,
        net_flow_mw: 1234.567,
        price_from: 50.1,
        price_to: -3.0001,
        price_delta: -53.1001,
        capacity_mw: 3000,
        hours: 1,
        time_zone: 'UTC',
      },
      {
        datetime: Date.UTC(2025, 9, 20, 7),
        bidding_zone_from: 'FR',
        bidding_zone_to: 'ES',
        flow_type: 'outage',
        flow_interpolated: true,
        net_flow_mw: 0,
        price_from: null,
        price_to: null,
        price_delta: null,
        capacity_mw: null,
        hours: 1,
        time_zone: 'UTC',
      },
    ]);
  });

  it('gathers chunks into batches of exactly the asked rows, the first one smaller, cut at line ends', async () => {
    const read = columnsOfCsv(FLOW_ROW, UTC)!;
    const many = Array.from({ length: 25 }, (_, i) => ({ ...ROWS[1]!, hours: String(i) }));
    const text = Buffer.from(csvText(many));
    const lines = async function* () {
      for (let at = 0; at < text.length; at += 37) yield text.subarray(at, at + 37);
    };
    const sizes: number[] = [];
    for await (const b of csvColumnBatches(lines(), read, 3, 10)) sizes.push(b.length);
    expect(sizes).toEqual([3, 10, 10, 2]);
  });

  it('writes the same lines as NDJSON, an empty nullable cell as null, numbers and booleans bare', () => {
    const json = ndjsonOfCsv(FLOW_ROW)!(Buffer.from(csvText(ROWS)));
    const typed = (r: Record<string, string>) =>
      Object.fromEntries(
        NAMES.map((n) => {
          const v = r[n];
          if (v === undefined) return [n, null];
          return [n, /^(true|false|-?[\d.]+)$/.test(v) && !n.startsWith('bidding') ? JSON.parse(v) : v];
        }),
      );
    expect(json).toBe(ROWS.map((r) => `${JSON.stringify(typed(r))}\n`).join(''));
    expect(json.split('\n')[1]).toContain('"capacity_mw":null,"hours":1}');
  });

  it('refuses a quoted cell and an empty cell of a field that is never null, rather than write a wrong value', () => {
    const read = columnsOfCsv(FLOW_ROW, UTC)!;
    expect(() => read(csvText([{ ...ROWS[0]!, bidding_zone_to: '"F,R"' }]), 1)).toThrow(/CSV/);
    expect(() => read(csvText([{ ...ROWS[0]!, hours: '' }]), 1)).toThrow(/never null/);
    expect(() => read(csvText([{ ...ROWS[0]!, net_flow_mw: 'NaN' }]), 1)).toThrow(/no finite number/);
    expect(() => read(csvText([{ ...ROWS[0]!, flow_interpolated: 't' }]), 1)).toThrow(/no boolean/);
    const json = ndjsonOfCsv(FLOW_ROW)!;
    expect(() => json(Buffer.from(csvText([{ ...ROWS[0]!, price_from: 'Infinity' }])))).toThrow(/no JSON number/);
  });
});
