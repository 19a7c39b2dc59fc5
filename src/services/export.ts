import { currentRequestSignal } from '../deadline.js';
/**
 * The rows of the bulk exports (`/api/v1/export/*`): the same rows as the `/api/v1` twins, over
 * any range at any resolution, read in batches of whole buckets as the answer is written. Each
 * bucketed row carries the hours of its bucket that fall in the range (`coveredHours`), so a
 * partial first or last day or week is visible.
 */
import { DAY_MS, HOUR_MS, WEEK_MS } from '../domain/calendar.js';
import { type Column, type ColumnBatch, utcYears } from '../domain/columns.js';
import type { FlowRecord, PriceRecord } from '../domain/records.js';
import type { Resolution } from '../domain/resolution.js';
import { bucketBatches, type BucketBounds, RowBatches, readInBatches, splitAt } from '../domain/row-batches.js';
import type { TimeRange } from '../domain/time.js';
import { copyFlowsCsv } from '../repositories/flows/csv-copy.js';
import { findFlowRows } from '../repositories/flows/read-rows.js';
import { isHourly } from '../repositories/flows/row-query.js';
import { copyPriceColumns, type PriceColumns } from '../repositories/prices/column-copy.js';
import { copyPricesCsv } from '../repositories/prices/csv-copy.js';
import { rounder, WIRE_PRICE_DECIMALS } from '../domain/rounding.js';
import { getCiShare, getFlowTypeSummary } from './aggregates.js';
import type { ServiceDeps } from './context.js';
import type { FlowSelection } from './flow-filter.js';
import { flowMeta, flowRowTimeZone, resolveFlowQuery } from './flows.js';
import type { Meta } from './meta.js';
import { findPricesOver, type PricesInput, priceMeta, priceQueryOver, resolvePriceQuery } from './prices.js';
import { rowZoneOf } from './time-zone.js';

/** Rows a batch of an export aims at: a few MB of text, whatever the range. */
export const EXPORT_BATCH_ROWS = 50_000;

/** A row with the hours of its bucket inside the requested range (null for native rows). */
export type Covered<R> = R & { readonly coveredHours: number | null };

/** The rows of an export and what writes them. */
export interface ExportRows<R> {
  readonly meta: Meta;
  readonly range: TimeRange;
  readonly resolution: Resolution;
  readonly rows: RowBatches<Covered<R>>;
  /** Under `tz`, the IANA zone each row is written in. */
  readonly rowTimeZone?: ((row: R) => string) | undefined;
  /**
   * Where the database can write them: the rows' CSV lines (no header), the same bytes as the
   * CSV writer gives for {@link rows}, read instead of them (then {@link rows} is never read).
   */
  readonly csvLines?: (() => AsyncIterable<Uint8Array>) | undefined;
  /**
   * Where the database can give them as columns: the rows of {@link rows} (their REST fields and
   * `time_zone`, prices rounded as written), read instead of them by the typed formats.
   */
  readonly columns?: (() => AsyncIterable<ColumnBatch>) | undefined;
}

/** Batches made on the first read: rows read instead by another path start no statement. */
function lazyBatches<R>(make: () => RowBatches<R>): RowBatches<R> {
  let batches: AsyncIterator<readonly R[]> | undefined;
  return new RowBatches({
    next: () => {
      batches ??= make()[Symbol.asyncIterator]();
      return batches.next();
    },
    return: async () => (await batches?.return?.()) ?? { done: true, value: undefined },
  });
}

const localMidnight = new Map<string, Intl.DateTimeFormat>();

/** Whether `ms` is 00:00 wall-clock time in `timeZone`. */
function isLocalMidnight(ms: number, timeZone: string): boolean {
  let format = localMidnight.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    localMidnight.set(timeZone, format);
  }
  return format.format(ms) === '00:00';
}

/**
 * The end (exclusive, epoch ms) of the bucket starting at `start`: an hour, a UTC day or ISO week,
 * or with `timeZone` the next local midnight (a local day of 23, 24 or 25 hours, a local week of
 * 167 to 169 hours).
 */
export function bucketEnd(start: number, resolution: Exclude<Resolution, 'native'>, timeZone?: string): number {
  if (resolution === '1H') return start + HOUR_MS;
  const span = resolution === '1D' ? DAY_MS : WEEK_MS;
  if (!timeZone || timeZone === 'UTC') return start + span;
  for (const shift of [0, -HOUR_MS, HOUR_MS, -2 * HOUR_MS, 2 * HOUR_MS]) {
    if (isLocalMidnight(start + span + shift, timeZone)) return start + span + shift;
  }
  return start + span;
}

/** Hours of the bucket starting at `start` that fall in `range` (a partial first or last bucket has fewer). */
export function coveredHours(
  start: Date,
  range: TimeRange,
  resolution: Exclude<Resolution, 'native'>,
  timeZone?: string,
): number {
  const from = Math.max(start.getTime(), range.from.getTime());
  const to = Math.min(bucketEnd(start.getTime(), resolution, timeZone), range.to.getTime());
  return Math.max(0, to - from) / HOUR_MS;
}

/** `rows` with their covered hours: null at native resolution. */
function withCovered<R>(
  rows: RowBatches<R>,
  range: TimeRange,
  resolution: Resolution,
  startOf: (row: R) => Date,
  zoneOf?: (row: R) => string,
): RowBatches<Covered<R>> {
  if (resolution === 'native') return rows.map((r) => ({ ...r, coveredHours: null }));
  return rows.map((r) => ({ ...r, coveredHours: coveredHours(startOf(r), range, resolution, zoneOf?.(r)) }));
}

/** The rows of a batch whose bucket starts in `buckets`. */
function inBuckets<R extends { datetime: Date }>(rows: readonly R[], buckets: BucketBounds): readonly R[] {
  const from = buckets.from?.getTime() ?? Number.NEGATIVE_INFINITY;
  const to = buckets.to?.getTime() ?? Number.POSITIVE_INFINITY;
  if (from === Number.NEGATIVE_INFINITY && to === Number.POSITIVE_INFINITY) return rows;
  return rows.filter((r) => r.datetime.getTime() >= from && r.datetime.getTime() < to);
}

/** Rows a series gives per UTC day at a resolution (at most). */
const ROWS_PER_DAY: Readonly<Record<Resolution, number>> = { native: 96, '1H': 24, '1D': 1, '1W': 1 };

/** Days (or weeks at 1W) per batch for `series` series giving {@link ROWS_PER_DAY} rows a bucket. */
function bucketsPerBatch(series: number, resolution: Resolution, rowsPerSeries = ROWS_PER_DAY[resolution]): number {
  return Math.max(1, Math.floor(EXPORT_BATCH_ROWS / Math.max(1, series * rowsPerSeries)));
}

/**
 * Parts of a range for the database's own writing (COPY), cut at UTC midnights: `first` days, then
 * each part twice the one before, up to `most` days. A small first part gives the first byte soon;
 * larger ones after it spare a statement's start (plan, sort) per part.
 */
export function growingParts(range: TimeRange, first: number, most: number): TimeRange[] {
  const cuts: Date[] = [];
  let days = Math.max(1, Math.floor(first));
  let at = Math.floor(range.from.getTime() / DAY_MS) * DAY_MS;
  for (;;) {
    at += days * DAY_MS;
    if (at >= range.to.getTime()) break;
    cuts.push(new Date(at));
    days = Math.min(days * 2, Math.max(1, Math.floor(most)));
  }
  return splitAt(range, cuts);
}

const wirePrice = rounder(WIRE_PRICE_DECIMALS);

/** A batch of native UTC price rows as the columns of REST /prices (and `time_zone`): prices rounded as written. */
function priceColumnBatch(c: PriceColumns): ColumnBatch {
  const price = c.price;
  for (let i = 0; i < price.length; i++) price[i] = wirePrice(price[i]!);
  return {
    length: c.length,
    columns: new Map<string, Column>([
      ['datetime', { kind: 'timestamp', ms: c.datetimeMs }],
      ['bidding_zone', c.zone],
      ['price_mwh', { kind: 'float', values: price }],
      ['interpolated', { kind: 'bool', values: c.interpolated }],
      ['year', { kind: 'int', values: utcYears(c.datetimeMs) }],
      ['time_zone', { kind: 'constant', value: 'UTC' }],
    ]),
  };
}

/** Rows of the first column batch of an export (a day and a half of 30 zones' quarter hours): a first byte soon. */
export const FIRST_COLUMN_ROWS = 4_096;

/** Day-ahead prices (EUR/MWh) of an export: the rows of REST /prices over any range at any resolution. */
export async function exportPrices(deps: ServiceDeps, input: PricesInput): Promise<ExportRows<PriceRecord>> {
  const q = resolvePriceQuery(deps, { ...input, anyRange: true });
  const meta = await priceMeta(deps, q);
  const series = q.zoneIds.length + q.seriesParts.length;
  const unit = q.resolution === '1W' ? 'week' : 'day';
  const local = q.timeZone.byZoneId !== undefined && q.resolution !== 'native';
  const batches = bucketBatches(q.range, unit, bucketsPerBatch(series, q.resolution), local);
  const rows = lazyBatches(() =>
    readInBatches(
      batches,
      async (b) => inBuckets(await findPricesOver(deps, q, b.range), b.buckets),
      currentRequestSignal(),
    ),
  );
  const zoneOf = rowZoneOf(q.timeZone);
  const rowTimeZone = zoneOf && ((r: PriceRecord) => zoneOf(r.zone));
  const copied =
    deps.db.kind === 'postgres' &&
    deps.db.pool !== undefined &&
    q.resolution === 'native' &&
    !zoneOf &&
    input.lineage !== true &&
    !q.seriesParts.length;
  return {
    meta,
    range: q.range,
    resolution: q.resolution,
    rows: withCovered(rows, q.range, q.resolution, (r) => r.datetime, rowTimeZone),
    rowTimeZone,
    csvLines: copied
      ? () => {
          const days = bucketsPerBatch(series, 'native');
          const parts = growingParts(q.range, days / 8, days * 4);
          return copyPricesCsv(
            deps.db,
            parts.map((range) => priceQueryOver(q, range)),
          );
        }
      : undefined,
    columns: copied
      ? async function* () {
          const days = bucketsPerBatch(series, 'native');
          const parts = growingParts(q.range, days / 8, days * 4);
          const queries = parts.map((range) => priceQueryOver(q, range));
          for await (const c of copyPriceColumns(deps.db, queries, FIRST_COLUMN_ROWS, EXPORT_BATCH_ROWS))
            yield priceColumnBatch(c);
        }
      : undefined,
  };
}

/**
 * The parts of a range whose hourly flow rows one `COPY` each writes: growing from an eighth of a
 * row batch's days to four batches' (see {@link growingParts}), so no statement runs for the whole
 * download (each stays within the pool's statement time limit however long the range or slow the client).
 */
function hourlyCopyParts(range: TimeRange, borders: number): TimeRange[] {
  const days = bucketsPerBatch(borders, '1H', 24);
  return growingParts(range, days / 8, days * 4);
}

/**
 * Flow rows of an export: the rows of REST /flows (every page) over any range at any resolution.
 * On PostgreSQL without `tz`, the CSV is written by the database (`csvLines`): hourly rows in one
 * `COPY` per growing part of the range ({@link hourlyCopyParts}; rows are ordered by time first, so
 * the parts in order are the range's), bucketed rows in one `COPY` per batch of the row path (a
 * bucket's float sums then add up in the same order).
 */
export async function exportFlows(deps: ServiceDeps, input: FlowSelection): Promise<ExportRows<FlowRecord>> {
  const { sel, query } = resolveFlowQuery(deps, { ...input, anyRange: true });
  const base = await flowMeta(deps, sel, false);
  const borders = sel.filter.borderIds?.length ?? deps.catalogue.borders.length;
  const unit = sel.resolution === '1W' ? 'week' : 'day';
  const perBucket = sel.resolution === '1D' || sel.resolution === '1W' ? 4 : 24;
  const local = sel.borderTimeZones !== undefined && (sel.resolution === '1D' || sel.resolution === '1W');
  const batches = bucketBatches(sel.range, unit, bucketsPerBatch(borders, sel.resolution, perBucket), local);
  const rows = lazyBatches(() =>
    readInBatches(
      batches,
      async (b) => inBuckets(await findFlowRows(deps.db, { ...query, from: b.range.from, to: b.range.to }), b.buckets),
      currentRequestSignal(),
    ),
  );
  const rowTimeZone = flowRowTimeZone(sel);
  const copied =
    deps.db.kind === 'postgres' &&
    deps.db.pool !== undefined &&
    !rowTimeZone &&
    !query.timeZones &&
    sel.range.from.getTime() % 1_000 === 0 &&
    sel.range.to.getTime() % 1_000 === 0;
  return {
    meta: { ...base, pagination: null },
    range: sel.range,
    resolution: sel.resolution,
    rows: withCovered(rows, sel.range, sel.resolution, (r) => r.datetime, rowTimeZone),
    rowTimeZone,
    csvLines: copied
      ? () =>
          copyFlowsCsv(
            deps.db,
            (isHourly(query) ? hourlyCopyParts(sel.range, borders) : batches.map((b) => b.range)).map((r) => ({
              ...query,
              from: r.from,
              to: r.to,
            })),
            sel.range,
          )
      : undefined,
  };
}

type CiRow = Awaited<ReturnType<typeof getCiShare>> extends { rows: RowBatches<infer R> } ? R : never;
type SummaryRow = Awaited<ReturnType<typeof getFlowTypeSummary>> extends { rows: RowBatches<infer R> } ? R : never;

/** Rows of an aggregate read by day or bucket start (`day`), with the hours each bucket covers. */
function dayBuckets<R extends { day: Date }>(result: {
  meta: Meta;
  rows: RowBatches<R>;
  rowTimeZone?: ((row: R) => string) | undefined;
}): ExportRows<R> {
  const { meta, rows, rowTimeZone } = result;
  const resolution = meta.resolution as Resolution;
  const range = meta.range as TimeRange;
  return {
    meta,
    range,
    resolution,
    rows: withCovered(rows, range, resolution, (r) => r.day, rowTimeZone),
    rowTimeZone,
  };
}

/** Counter-intuitive share rows of an export: REST /ci-share over any range, hourly included. */
export async function exportCiShare(deps: ServiceDeps, input: FlowSelection): Promise<ExportRows<CiRow>> {
  return dayBuckets(await getCiShare(deps, { ...input, anyRange: true }));
}

/** Flow-type summary rows of an export: REST /flow-type-summary over any range. */
export async function exportFlowTypeSummary(deps: ServiceDeps, input: FlowSelection): Promise<ExportRows<SummaryRow>> {
  return dayBuckets(await getFlowTypeSummary(deps, { ...input, anyRange: true }));
}
