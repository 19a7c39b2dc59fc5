/**
 * CSV writers compared on a 20,000-row /flows page (JSON and Arrow IPC for reference): the project's escape function (src/rest/csv.ts)
 * and csv-stringify's sync API, both fed the contract's wire rows 1,000 at a time as the stream does.
 * Run: npx tsx bench/csv-writers.ts
 */
import { stringify } from 'csv-stringify/sync';
import { FLOW_ROW } from '../src/contract/rows/flows.js';
import { jsonChunks, wireRowOf, type WireRow } from '../src/contract/json.js';
import { Rng } from '../src/demo/rng.js';
import type { FlowRecord } from '../src/domain/records.js';
import { arrowChunks } from '../src/rest/arrow.js';
import { csvChunks, csvColumns } from '../src/rest/csv.js';

const rng = new Rng(11, 'csv-bench');
const TYPES = ['convergence', 'congestion', 'counter_intuitive', 'outage'] as const;
const rows: FlowRecord[] = Array.from({ length: 20_000 }, (_, i) => ({
  datetime: new Date(Date.UTC(2025, 9, 1) + Math.floor(i / 60) * 3_600_000),
  zoneFrom: 'DE_LU',
  zoneTo: 'FR',
  flowType: TYPES[i % 4] ?? 'convergence',
  flowInterpolated: rng.chance(0.05),
  netFlowMw: rng.range(-5000, 5000),
  priceFrom: rng.chance(0.05) ? null : rng.range(-50, 300),
  priceTo: rng.range(-50, 300),
  capacityMw: rng.chance(0.1) ? null : rng.range(0, 8000),
  hours: 1,
  derived: false,
}));

function ours(): number {
  let n = 0;
  for (const chunk of csvChunks(FLOW_ROW, rows)) n += chunk.length;
  return n;
}

const columns = csvColumns(FLOW_ROW).map((c) => c.header);
function library(): number {
  const wire = wireRowOf(FLOW_ROW);
  let n = stringify([], { header: true, columns, record_delimiter: 'windows' }).length;
  for (let at = 0; at < rows.length; at += 1_000) {
    const batch: WireRow[] = rows.slice(at, at + 1_000).map(wire);
    n += stringify(batch, {
      columns,
      record_delimiter: 'windows',
      cast: { boolean: (v) => (v ? 'true' : 'false') },
    }).length;
  }
  return n;
}

function time(name: string, f: () => number): void {
  for (let i = 0; i < 5; i++) f();
  const ms: number[] = [];
  let size = 0;
  for (let i = 0; i < 25; i++) {
    const t0 = performance.now();
    size = f();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(`${name}: median ${ms[12]?.toFixed(1)} ms, min ${ms[0]?.toFixed(1)} ms, ${size} chars`);
}

const a = [...csvChunks(FLOW_ROW, rows)].join('');
console.log(
  'same text:',
  a ===
    (() => {
      const wire = wireRowOf(FLOW_ROW);
      return stringify(rows.map(wire), {
        header: true,
        columns,
        record_delimiter: 'windows',
        cast: { boolean: (v) => (v ? 'true' : 'false') },
      });
    })(),
);
function json(): number {
  let n = 0;
  for (const chunk of jsonChunks(FLOW_ROW, rows)) n += chunk.length;
  return n;
}

function arrow(): number {
  let n = 0;
  for (const chunk of arrowChunks(FLOW_ROW, rows)) n += chunk.byteLength;
  return n;
}

for (let round = 0; round < 3; round++) {
  time('Arrow IPC batches (bytes)', arrow);
  time('escape function', ours);
  time('csv-stringify/sync', library);
  time('JSON rows (reference)', json);
}
