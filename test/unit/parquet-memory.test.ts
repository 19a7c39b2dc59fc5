/**
 * A Parquet export keeps parquet-wasm's memory flat however many batches it writes: each batch's
 * Arrow table is freed in WebAssembly memory as soon as its record batches are handed over, so a
 * long export does not grow the process (WebAssembly memory never shrinks once grown).
 */
import { parquetMetadata } from 'hyparquet';
import { wasmMemory } from 'parquet-wasm/node';
import { describe, expect, it } from 'vitest';
import { restFields } from '../../src/contract/fields.js';
import { FLOW_ROW } from '../../src/contract/rows/flows.js';
import type { ColumnBatch } from '../../src/domain/columns.js';
import { columnsOfCsv } from '../../src/rest/export/columns-of-csv.js';
import { typedContract } from '../../src/rest/export/formats.js';
import { parquetOfColumns } from '../../src/rest/export/parquet.js';

const ROWS = 10_000;
const BATCHES = 24;
const ZONES = ['DE_LU', 'FR', 'NL', 'BE', 'AT', 'CH', 'PL', 'CZ', 'DK_1', 'SE_4', 'IT_NORD', 'ES'];
const TYPES = ['convergence', 'congestion', 'counter_intuitive', 'outage'];
const START_MS = Date.UTC(2020, 0, 1);

/** Batch `b` of hourly flow rows as the database writes them (CSV lines), varied so they do not compress away. */
function csvBatch(b: number): string {
  const lines: string[] = [];
  let hour = '';
  for (let i = 0; i < ROWS; i++) {
    const n = b * ROWS + i;
    const from = ZONES[n % ZONES.length]!;
    const to = ZONES[(n + 5) % ZONES.length]!;
    if (n % 40 === 0 || !hour)
      hour = new Date(START_MS + Math.floor(n / 40) * 3_600_000).toISOString().replace('.000Z', 'Z');
    const pf = ((n * 7919) % 40_000) / 100;
    const pt = ((n * 104_729) % 40_000) / 100;
    const flow = ((n * 15_485_863) % 5_000_000) / 1000;
    lines.push(
      `${hour},${from},${to},${TYPES[n % 4]},${n % 9 === 0},${flow},${pf},${pt},${(pt - pf).toFixed(2)},${(n * 31) % 6000},1\r\n`,
    );
  }
  return lines.join('');
}

/** The column batches of {@link BATCHES} batches, calling `after(b)` once batch b has been taken. */
async function* batches(after: (b: number) => void): AsyncGenerator<ColumnBatch> {
  const read = columnsOfCsv(FLOW_ROW, new Map([['time_zone', { kind: 'constant', value: 'UTC' }]]))!;
  for (let b = 0; b < BATCHES; b++) {
    yield read(csvBatch(b), ROWS);
    after(b);
  }
}

const wasmBytes = () => wasmMemory().buffer.byteLength;

describe('Parquet export memory', () => {
  it('keeps parquet-wasm memory flat from the 8th to the 24th batch of 10,000 rows, and the file whole', async () => {
    expect(restFields(FLOW_ROW).length).toBe(11);
    let atEighth = 0;
    const parts: Uint8Array[] = [];
    const file = parquetOfColumns(
      typedContract(FLOW_ROW),
      batches((b) => {
        if (b === 7) atEighth = wasmBytes();
      }),
      () => undefined,
    );
    for await (const part of file) parts.push(part);
    const bytes = Buffer.concat(parts);
    const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    expect(Number(meta.num_rows)).toBe(ROWS * BATCHES);
    expect(atEighth).toBeGreaterThan(0);
    expect(wasmBytes() - atEighth).toBeLessThanOrEqual(4 * 2 ** 20);
  });
});
