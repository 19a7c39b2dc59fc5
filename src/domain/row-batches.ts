/**
 * Rows of one answer read part by part while the answer is written (whole-span aggregates), and
 * how a range is cut into those parts. Pure.
 */
import { DAY_MS, isoWeekStart, WEEK_MS } from './calendar.js';
import type { TimeRange } from './time.js';

/**
 * The rows of an answer as consecutive batches, each read when the one before it is taken: a
 * response writes each batch as it arrives, so neither the rows nor their text exist whole in
 * memory. Read once.
 */
export class RowBatches<R> implements AsyncIterable<readonly R[]> {
  private taken = false;

  constructor(private readonly batches: AsyncIterator<readonly R[]>) {}

  [Symbol.asyncIterator](): AsyncIterator<readonly R[]> {
    if (this.taken) throw new Error('row batches are read once');
    this.taken = true;
    return this.batches;
  }

  /** The same batches with each row mapped by `fn`, as they are read. */
  map<S>(fn: (row: R) => S): RowBatches<S> {
    return new RowBatches(mapBatches(this, fn));
  }

  /** Every row, read to the end (GraphQL, which builds its whole result). */
  async all(): Promise<R[]> {
    const rows: R[] = [];
    for await (const batch of this) for (const row of batch) rows.push(row);
    return rows;
  }
}

async function* mapBatches<R, S>(batches: RowBatches<R>, fn: (row: R) => S): AsyncGenerator<readonly S[]> {
  for await (const batch of batches) yield batch.map(fn);
}

/** An answer's rows: all at once, or {@link RowBatches} read while the answer is written. */
export type Rows<R> = readonly R[] | RowBatches<R>;

/** Every row of `rows`, read to the end when they come in batches. */
export async function allRows<R>(rows: Rows<R>): Promise<readonly R[]> {
  return rows instanceof RowBatches ? rows.all() : rows;
}

/**
 * The results of `reads` in order. The first read starts at once; each next one when the one
 * before it is taken, so the database computes a batch while the caller writes the one before:
 * at most one read runs and two results are held. A failed read fails the iteration at its turn;
 * `return()` (a client gone) starts no further read.
 */
export function readAhead<T>(reads: readonly (() => Promise<T>)[]): AsyncIterator<T> {
  let at = 0;
  let pending: Promise<T> | null = reads.length ? started(reads[0]!) : null;
  return {
    async next(): Promise<IteratorResult<T>> {
      if (!pending) return { done: true, value: undefined };
      const current = pending;
      pending = null;
      const value = await current;
      at += 1;
      pending = at < reads.length ? started(reads[at]!) : null;
      return { done: false, value };
    },
    async return(): Promise<IteratorResult<T>> {
      pending = null;
      at = reads.length;
      return { done: true, value: undefined };
    },
  };
}

/** A read started now whose failure waits for its turn: never an unhandled rejection when the iteration is left. */
function started<T>(read: () => Promise<T>): Promise<T> {
  const p = read();
  p.catch(() => undefined);
  return p;
}

/**
 * Starts of UTC buckets that cut a range into parts of `size` whole buckets (days or ISO weeks):
 * the instants after `range.from`'s bucket start, `size` buckets apart, before `range.to`. Each
 * bucket of the range falls in exactly one part, so the parts' rows in order are the range's.
 */
export function bucketCuts(range: TimeRange, unit: 'day' | 'week', size: number): Date[] {
  const step = (unit === 'week' ? WEEK_MS : DAY_MS) * Math.max(1, Math.floor(size));
  const from = range.from.getTime();
  const first = unit === 'week' ? isoWeekStart(from) : Math.floor(from / DAY_MS) * DAY_MS;
  const cuts: Date[] = [];
  for (let at = first + step; at < range.to.getTime(); at += step) cuts.push(new Date(at));
  return cuts;
}

/** The parts of a range between its {@link bucketCuts}: [from, cut1), [cut1, cut2), … [cutN, to). */
export function splitAt(range: TimeRange, cuts: readonly Date[]): TimeRange[] {
  const edges = [range.from, ...cuts, range.to];
  return edges.slice(1).map((to, i) => ({ from: edges[i]!, to }));
}
