/**
 * The demo data set's rows loaded month by month inside the caller's transaction: each calendar
 * month's prices and border-hours, then a turn of the event loop (progress reaches the terminal and
 * Ctrl-C takes effect between months). Rollups are the caller's: built once, after the load.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type ProgressReporter, SILENT_PROGRESS } from '../ingest/progress.js';
import type { StoredCatalogue } from '../domain/catalogue.js';
import { appendBorderHours, appendPrices, loadBorderHours, loadPrices } from '../repositories/load.js';
import type { Sql } from '../repositories/sql.js';
import { HOUR_MS } from './calendar.js';
import type { DemoDataSet } from './generate.js';
import { monthSlices } from './large.js';
import { demoBorderHourRows, demoPriceRows } from './rows.js';

/** Rows loaded and time spent (ms) per kind of work. */
export interface MonthLoadTotals {
  prices: number;
  borderHours: number;
  pricesMs: number;
  borderHoursMs: number;
}

/** Which tables hold no row yet (then rows are appended: no probe, no upsert). */
export interface EmptyTargets {
  readonly prices: boolean;
  readonly borderHours: boolean;
}

/** Loads every month of `data`, reporting one progress window per month. */
export async function loadDemoMonths(
  sql: Sql,
  data: DemoDataSet,
  catalogue: StoredCatalogue,
  empty: EmptyTargets,
  progress: ProgressReporter = SILENT_PROGRESS,
): Promise<MonthLoadTotals> {
  const totals: MonthLoadTotals = { prices: 0, borderHours: 0, pricesMs: 0, borderHoursMs: 0 };
  const slices = monthSlices(data);
  progress.start(slices.length, 0);
  for (const slice of slices) {
    const month = new Date(data.range.start + slice.from * HOUR_MS).toISOString().slice(0, 7);
    const label = `demo data ${month}: prices, flows`;
    progress.begin(label);
    await nextTurn();
    let t = performance.now();
    const prices = demoPriceRows(data, catalogue, slice);
    await (empty.prices ? appendPrices(sql, prices) : loadPrices(sql, prices));
    totals.pricesMs += performance.now() - t;
    t = performance.now();
    const hours = demoBorderHourRows(data, catalogue, slice);
    await (empty.borderHours ? appendBorderHours(sql, hours) : loadBorderHours(sql, hours));
    totals.borderHoursMs += performance.now() - t;
    totals.prices += prices.length;
    totals.borderHours += hours.length;
    progress.end(label, { rows: prices.length + hours.length });
  }
  progress.finish();
  return totals;
}
