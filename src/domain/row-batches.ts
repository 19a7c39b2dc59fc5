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
 * `return()` (a client gone) starts no further read, nor does an aborted `signal` (the request's):
 * the next read then fails with its reason instead of starting.
 */
export function readAhead<T>(reads: readonly (() => Promise<T>)[], signal?: AbortSignal): AsyncIterator<T> {
  let at = 0;
  const start = (read: () => Promise<T>) => started(signal?.aborted ? () => Promise.reject(signal.reason) : read);
  let pending: Promise<T> | null = reads.length ? start(reads[0]!) : null;
  return {
    async next(): Promise<IteratorResult<T>> {
      if (!pending) return { done: true, value: undefined };
      const current = pending;
      pending = null;
      const value = await current;
      at += 1;
      pending = at < reads.length ? start(reads[at]!) : null;
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

/** Bucket starts (instants) a read keeps: [from, to), either side open when absent. */
export interface BucketBounds {
  readonly from?: Date;
  readonly to?: Date;
}

/** One batch of a bucketed answer: the hours it reads and the buckets it keeps of them. */
export interface BucketBatch {
  /** The hours the batch counts. */
  readonly range: TimeRange;
  /** The bucket starts it keeps; open (all it reads) at UTC buckets. */
  readonly buckets: BucketBounds;
}

/** How far past its start a local day or week may reach, ms (a 25-hour day, a week across a DST switch, with a day to spare). */
const LOCAL_BUCKET_REACH_MS = { day: 2 * DAY_MS, week: WEEK_MS + DAY_MS } as const;

/**
 * The batches of a range bucketed in days or weeks, `size` UTC buckets each (see
 * {@link bucketCuts}): each bucket of the range is counted whole in exactly one batch, the
 * batches in bucket order. At UTC buckets a batch reads its part of the range. Local buckets
 * (`local`) straddle any UTC cut: a batch reads from its part's start to a little past its cut
 * (never past the range) and keeps the buckets starting between its cuts (the first batch also
 * those starting before the range, the last those after its cut).
 */
export function bucketBatches(range: TimeRange, unit: 'day' | 'week', size: number, local: boolean): BucketBatch[] {
  const cuts = bucketCuts(range, unit, size);
  return splitAt(range, cuts).map((part, i) => {
    const cut = cuts[i];
    if (!local) return { range: part, buckets: {} };
    const to = cut ? new Date(Math.min(range.to.getTime(), cut.getTime() + LOCAL_BUCKET_REACH_MS[unit])) : range.to;
    return { range: { from: part.from, to }, buckets: { from: i > 0 ? part.from : undefined, to: cut } };
  });
}

/**
 * The rows of `read` of each of `parts`, in order, as {@link RowBatches} read one ahead; none is
 * started once `signal` (the request's) has aborted.
 */
export function readInBatches<P, R>(
  parts: readonly P[],
  read: (part: P) => Promise<readonly R[]>,
  signal?: AbortSignal,
): RowBatches<R> {
  return new RowBatches(
    readAhead(
      parts.map((p) => () => read(p)),
      signal,
    ),
  );
}

/**
 * `items` in runs of consecutive items, at most `size` items a run unless neighbours with the same
 * `key` make it longer: those are never parted.
 */
export function runsOf<T>(items: readonly T[], size: number, key: (item: T) => string): T[][] {
  const runs: T[][] = [];
  const most = Math.max(1, Math.floor(size));
  for (const item of items) {
    const last = runs.at(-1);
    const same = last !== undefined && key(last.at(-1)!) === key(item);
    if (last && (same || last.length < most)) last.push(item);
    else runs.push([item]);
  }
  return runs;
}
