import { parse } from 'csv-parse/sync';
import { tableFromIPC } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { createYoga, createSchema } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { PRICE_ROW } from '../../src/contract/rows/prices.js';
import type { PriceRecord } from '../../src/domain/records.js';
import { RowBatches } from '../../src/domain/row-batches.js';
import { createDataVersion } from '../../src/events/version.js';
import { createLogger } from '../../src/logger.js';
import type { ExportEndpoint } from '../../src/rest/export/endpoints.js';
import { exportFormatParam } from '../../src/rest/export/formats.js';
import { exportPlugin } from '../../src/rest/export/plugin.js';
import { MemoryBucketStore } from '../../src/security/memory-store.js';
import { TokenBucketLimiter } from '../../src/security/token-bucket.js';
import type { ServiceDeps } from '../../src/services/context.js';
import { z } from 'zod';

const HOUR = 3_600_000;
const FROM = Date.UTC(2025, 0, 1);

/** `n` hourly FR prices from FROM on, price = index. */
const prices = (from: number, n: number): PriceRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    datetime: new Date(FROM + (from + i) * HOUR),
    zone: 'FR',
    price: from + i,
    interpolated: false,
  }));

/** A fake export of `batches` (each a row count, or an error, or a pause in ms) over 2025. */
function fakeExport(batches: readonly (number | Error | { wait: number; rows: number })[]): ExportEndpoint {
  return {
    path: '/api/v1/export/prices',
    twin: '/api/v1/prices',
    name: 'prices',
    summary: '',
    description: '',
    params: [],
    query: z.object({ format: exportFormatParam }),
    async run() {
      async function* read(): AsyncGenerator<readonly PriceRecord[]> {
        let at = 0;
        for (const b of batches) {
          if (b instanceof Error) throw b;
          const n = typeof b === 'number' ? b : b.rows;
          if (typeof b !== 'number') await new Promise((r) => setTimeout(r, b.wait));
          yield prices(at, n);
          at += n;
        }
      }
      const range = { from: new Date(FROM), to: new Date(FROM + 365 * 24 * HOUR) };
      return {
        exported: {
          meta: { provenance: 'measured', upstreamSources: [], range, resolution: 'native', pagination: null },
          range,
          resolution: 'native',
          rows: new RowBatches(read()).map((r) => ({ ...r, coveredHours: null })),
        },
        contract: PRICE_ROW as any,
      };
    },
  };
}

function server(endpoint: ExportEndpoint, opts: { perClient?: number; timeoutMs?: number } = {}) {
  const limiter = new TokenBucketLimiter({ capacity: 1_000, refillPerSecond: 0.001, store: new MemoryBucketStore() });
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { x: Int }' }),
    logging: false,
    plugins: [
      exportPlugin({
        deps: {} as ServiceDeps,
        logger: createLogger({ LOG_LEVEL: 'silent' } as any),
        timeoutMs: opts.timeoutMs ?? 30_000,
        version: createDataVersion(),
        limiter,
        policy: { perClient: opts.perClient ?? 2, rowsPerToken: 10_000 },
        endpoints: [endpoint],
      }),
    ],
  });
  const get = (query: string) => Promise.resolve(yoga.fetch(`http://test/api/v1/export/prices?${query}`));
  return { get, limiter };
}

describe('a streamed export', () => {
  it('ends a CSV body cut by an error after its first byte with a #error: line after whole rows', async () => {
    const { get } = server(fakeExport([3, 2, new Error('the database went away')]));
    const res = await get('format=csv');
    expect(res.status).toBe(200);
    const body = await res.text();
    const lines = body.trimEnd().split('\r\n');
    expect(lines.at(-1)).toBe('#error: export truncated: the database went away');
    const rows = parse(lines.slice(0, -1).join('\r\n'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.price_mwh)).toEqual(['0', '1', '2', '3', '4']);
  });

  it('ends an NDJSON body cut by an error with an {"error":…} line', async () => {
    const { get } = server(fakeExport([2, new Error('boom')]));
    const lines = (await (await get('format=ndjson')).text()).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!)).toEqual({ error: 'export truncated: boom' });
  });

  it('aborts an Arrow body cut by an error: no end-of-stream marker reaches the client', async () => {
    const { get } = server(fakeExport([2, new Error('boom')]));
    const res = await get('format=arrow');
    await expect(res.arrayBuffer()).rejects.toThrow();
    const whole = await (await server(fakeExport([2, 3])).get('format=arrow')).arrayBuffer();
    expect(tableFromIPC(new Uint8Array(whole)).numRows).toBe(5);
  });

  it('streams Parquet row groups before the end and aborts a body cut by an error without its footer', async () => {
    const res = await server(fakeExport([30_000, 30_000, 30_000, new Error('boom')])).get('format=parquet');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const parts: Uint8Array[] = [];
    const readAll = async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parts.push(value);
      }
    };
    await expect(readAll()).rejects.toThrow();
    const received = Buffer.concat(parts);
    expect(received.subarray(0, 4).toString()).toBe('PAR1');
    expect(received.length).toBeGreaterThan(10_000);
    const bytes = received.buffer.slice(received.byteOffset, received.byteOffset + received.length);
    expect(() => parquetMetadata(bytes)).toThrow();
    const whole = await (await server(fakeExport([30_000, 30_000, 30_000])).get('format=parquet')).arrayBuffer();
    expect(parquetMetadata(whole).row_groups.map((g) => Number(g.num_rows))).toEqual([50_000, 40_000]);
    const rows = await parquetReadObjects({ file: whole, columns: ['price_mwh'] });
    expect(rows.at(-1)).toEqual({ price_mwh: 89_999 });
  });

  it('answers an error before the first byte as JSON', async () => {
    const res = await server(fakeExport([new Error('no database')])).get('format=csv');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('charges one token per 10,000 rows as it streams', async () => {
    const { get, limiter } = server(fakeExport([12_000, 12_000, 12_000]));
    const res = await get('format=csv');
    expect(res.headers.get('x-export-tokens-per-rows')).toBe('1;rows=10000');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(36_001);
    expect((await limiter.peek('anonymous')).remaining).toBe(1_000 - 3);
  });

  it('refuses a third concurrent export of one client with 429, and takes one again when one has finished', async () => {
    const slow = fakeExport([1, { wait: 300, rows: 1 }]);
    const { get } = server(slow, { perClient: 2 });
    const [a, b] = await Promise.all([get('format=csv'), get('format=csv')]);
    const third = await get('format=csv');
    expect(third.status).toBe(429);
    expect(third.headers.get('x-export-concurrency-limit')).toBe('2');
    await Promise.all([a.text(), b.text()]);
    expect((await get('format=csv')).status).toBe(200);
  });

  it('bounds the time between batches, not the whole transfer', async () => {
    const paced = fakeExport([1, { wait: 150, rows: 1 }, { wait: 150, rows: 1 }, { wait: 150, rows: 1 }]);
    const body = await (await server(paced, { timeoutMs: 400 }).get('format=csv')).text();
    expect(body.trimEnd().split('\r\n')).toHaveLength(5);
    const late = fakeExport([1, { wait: 1_500, rows: 1 }]);
    const cut = await (await server(late, { timeoutMs: 300 }).get('format=csv')).text();
    expect(cut.trimEnd().split('\r\n').at(-1)).toMatch(
      /^#error: export truncated: The request exceeded the 0.3 s time limit/,
    );
  });
});
