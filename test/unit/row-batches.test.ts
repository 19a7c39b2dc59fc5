import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { FLOW_TYPE_SUMMARY_ROW } from '../../src/contract/rows/flow-aggregates.js';
import { jsonChunks } from '../../src/contract/json.js';
import {
  allRows,
  bucketBatches,
  bucketCuts,
  readAhead,
  RowBatches,
  runsOf,
  splitAt,
} from '../../src/domain/row-batches.js';
import { arrowChunks, arrowWriter } from '../../src/rest/arrow.js';
import { type Chunks, writeRows } from '../../src/rest/chunks.js';
import { csvChunks, csvWriter } from '../../src/rest/csv.js';

const range = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });
const iso = (ds: readonly Date[]) => ds.map((d) => d.toISOString());

async function drain<C>(chunks: Chunks<C>): Promise<C[]> {
  const out: C[] = [];
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) out.push(next.value);
  return out;
}

describe('cutting a range into parts of whole UTC buckets', () => {
  it('cuts at every third Monday after the first week, whatever hour the range starts and ends', () => {
    const r = range('2025-09-24T05:00:00Z', '2025-11-04T07:00:00Z');
    const cuts = bucketCuts(r, 'week', 3);
    // The range starts in the week of Monday 2025-09-22: cuts 3 and 6 weeks later, before the end.
    expect(iso(cuts)).toEqual(['2025-10-13T00:00:00.000Z', '2025-11-03T00:00:00.000Z']);
    expect(splitAt(r, cuts).map((p) => [p.from.toISOString(), p.to.toISOString()])).toEqual([
      ['2025-09-24T05:00:00.000Z', '2025-10-13T00:00:00.000Z'],
      ['2025-10-13T00:00:00.000Z', '2025-11-03T00:00:00.000Z'],
      ['2025-11-03T00:00:00.000Z', '2025-11-04T07:00:00.000Z'],
    ]);
  });

  it('cuts days at UTC midnights and leaves a range shorter than one part whole', () => {
    expect(iso(bucketCuts(range('2025-10-01T22:00:00Z', '2025-10-06T00:00:00Z'), 'day', 2))).toEqual([
      '2025-10-03T00:00:00.000Z',
      '2025-10-05T00:00:00.000Z',
    ]);
    const short = range('2025-10-01T22:00:00Z', '2025-10-03T00:00:00Z');
    expect(bucketCuts(short, 'day', 2)).toEqual([]);
    expect(splitAt(short, [])).toEqual([short]);
  });
});

describe('batches of a bucketed range', () => {
  const r = range('2025-10-01T22:00:00Z', '2025-10-06T03:00:00Z');
  const shown = (bs: ReturnType<typeof bucketBatches>) =>
    bs.map((b) => [
      iso([b.range.from, b.range.to]),
      iso([b.buckets.from, b.buckets.to].filter((d) => d !== undefined)),
    ]);

  it('read the parts between the cuts at UTC buckets, keeping all they read', () => {
    expect(shown(bucketBatches(r, 'day', 2, false))).toEqual([
      [['2025-10-01T22:00:00.000Z', '2025-10-03T00:00:00.000Z'], []],
      [['2025-10-03T00:00:00.000Z', '2025-10-05T00:00:00.000Z'], []],
      [['2025-10-05T00:00:00.000Z', '2025-10-06T03:00:00.000Z'], []],
    ]);
  });

  it('read local buckets two days past each cut (never past the range) and keep those starting between the cuts', () => {
    const bs = bucketBatches(r, 'day', 2, true);
    expect(bs.map((b) => [b.range.from.toISOString(), b.range.to.toISOString()])).toEqual([
      ['2025-10-01T22:00:00.000Z', '2025-10-05T00:00:00.000Z'],
      ['2025-10-03T00:00:00.000Z', '2025-10-06T03:00:00.000Z'],
      ['2025-10-05T00:00:00.000Z', '2025-10-06T03:00:00.000Z'],
    ]);
    expect(bs.map((b) => [b.buckets.from?.toISOString(), b.buckets.to?.toISOString()])).toEqual([
      [undefined, '2025-10-03T00:00:00.000Z'],
      ['2025-10-03T00:00:00.000Z', '2025-10-05T00:00:00.000Z'],
      ['2025-10-05T00:00:00.000Z', undefined],
    ]);
  });

  it('read local weeks eight days past each cut', () => {
    const weeks = range('2025-09-24T05:00:00Z', '2025-11-20T00:00:00Z');
    const bs = bucketBatches(weeks, 'week', 3, true);
    expect(bs.map((b) => b.range.to.toISOString())).toEqual([
      '2025-10-21T00:00:00.000Z',
      '2025-11-11T00:00:00.000Z',
      '2025-11-20T00:00:00.000Z',
    ]);
  });
});

describe('runs of items', () => {
  const key = (s: string) => s.slice(0, 1);

  it('holds at most `size` items a run, unless neighbours of one key make it longer', () => {
    expect(runsOf(['a1', 'b1', 'c1', 'd1', 'e1'], 2, key)).toEqual([['a1', 'b1'], ['c1', 'd1'], ['e1']]);
    expect(runsOf(['a1', 'b1', 'b2', 'b3', 'c1'], 2, key)).toEqual([['a1', 'b1', 'b2', 'b3'], ['c1']]);
    expect(runsOf(['a1', 'b1'], 0, key)).toEqual([['a1'], ['b1']]);
    expect(runsOf(['a1', 'b1'], Infinity, key)).toEqual([['a1', 'b1']]);
    expect(runsOf([], 3, key)).toEqual([]);
  });
});

describe('reading batches one ahead', () => {
  it('gives the results in order with at most one read running, the first started at once', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const reads = [1, 2, 3].map((n) => async () => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return [n];
    });
    const batches = new RowBatches(readAhead(reads));
    expect(started).toEqual([1]);
    expect(await batches.all()).toEqual([1, 2, 3]);
    expect(most).toBe(1);
  });

  it('fails at the failed read, after the batches before it', async () => {
    const it = readAhead([async () => ['a'], () => Promise.reject(new Error('gone'))]);
    expect(await it.next()).toEqual({ done: false, value: ['a'] });
    await expect(it.next()).rejects.toThrow('gone');
  });

  it('starts no further read once left', async () => {
    const started: number[] = [];
    const it = readAhead([0, 1, 2].map((n) => async () => (started.push(n), [n])));
    await it.next();
    await it.return!();
    expect(await it.next()).toEqual({ done: true, value: undefined });
    expect(started).toEqual([0, 1]);
  });

  it("starts no read once the request's signal has aborted, and fails at the next batch with its reason", async () => {
    const started: number[] = [];
    const request = new AbortController();
    const it = readAhead(
      [0, 1, 2].map((n) => async () => (started.push(n), [n])),
      request.signal,
    );
    request.abort(new Error('client closed'));
    expect(await it.next()).toEqual({ done: false, value: [0] });
    await expect(it.next()).rejects.toThrow('client closed');
    expect(started).toEqual([0]);
  });

  it('is read once, and maps rows as they are read', async () => {
    const batches = new RowBatches(readAhead([async () => [1, 2], async () => [3]]));
    const doubled = batches.map((n) => n * 2);
    expect(await allRows(doubled)).toEqual([2, 4, 6]);
    expect(() => batches[Symbol.asyncIterator]()).toThrow('read once');
  });
});

describe('writing rows that come in batches', () => {
  const row = (i: number) => ({
    day: new Date(Date.UTC(2025, 0, 6 + 7 * i)),
    zoneA: 'DE_LU',
    zoneB: i % 2 ? 'FR' : 'NL',
    convergence: i,
    congestion: 1,
    counterIntuitive: 2,
    outage: 0,
    hours: i + 3,
  });
  const rows = Array.from({ length: 2_345 }, (_, i) => row(i));
  const inBatches = () =>
    new RowBatches(
      readAhead([rows.slice(0, 700), rows.slice(700, 701), [], rows.slice(701)].map((b) => async () => b)),
    );

  it('writes the same JSON, CSV and Arrow as the rows all at once', async () => {
    const json = (await drain(writeRows(inBatches(), { rows: (b) => jsonChunks(FLOW_TYPE_SUMMARY_ROW, b) }))).join(',');
    expect(json).toBe([...jsonChunks(FLOW_TYPE_SUMMARY_ROW, rows)].join(','));
    const csv = (await drain(writeRows(inBatches(), csvWriter(FLOW_TYPE_SUMMARY_ROW)))).join('');
    expect(csv).toBe([...csvChunks(FLOW_TYPE_SUMMARY_ROW, rows)].join(''));
    const arrow = tableFromIPC(await drain(writeRows(inBatches(), arrowWriter(FLOW_TYPE_SUMMARY_ROW))));
    const whole = tableFromIPC([...arrowChunks(FLOW_TYPE_SUMMARY_ROW, rows)]);
    expect(arrow.numRows).toBe(rows.length);
    expect(arrow.toArray().map((r) => r.toJSON())).toEqual(whole.toArray().map((r) => r.toJSON()));
  });

  it('writes the Arrow schema and no row when no batch holds one', async () => {
    const none = new RowBatches(readAhead([async () => [] as ReturnType<typeof row>[]]));
    const table = tableFromIPC(await drain(writeRows(none, arrowWriter(FLOW_TYPE_SUMMARY_ROW))));
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.map((f) => f.name)).toContain('counter_intuitive');
  });

  it('reads the first batch before the first chunk, and no further batch until asked', async () => {
    const read: number[] = [];
    const batches = new RowBatches(
      readAhead([0, 1, 2].map((n) => () => (read.push(n), Promise.reject(new Error(`batch ${n}`))))),
    );
    const chunks = writeRows(batches, csvWriter(FLOW_TYPE_SUMMARY_ROW));
    await expect(chunks.next()).rejects.toThrow('batch 0');
    expect(read).toEqual([0]);
  });
});
