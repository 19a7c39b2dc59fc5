/**
 * The demo data set's rows loaded month by month inside the caller's transaction: each calendar
 * month's prices and border-hours, then a turn of the event loop (progress reaches the terminal and
 * Ctrl-C takes effect between months). Rollups are the caller's: built once, after the load.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type ProgressReporter, SILENT_PROGRESS } from '../ingest/progress.js';
import type { StoredCatalogue } from '../domain/catalogue.js';
import {
  appendBorderHourPayloads,
  appendPricePayloads,
  loadBorderHours,
  loadPrices,
} from '../repositories/ingest/load.js';
import type { Sql } from '../db/executor.js';
import { HOUR_MS } from './calendar.js';
import type { DemoDataSet } from './generate.js';
import { demoBorderHourPayloads, demoPricePayloads } from './copy-payloads.js';
import { type DemoIds, type HourSlice, demoBorderHourRows, demoIds, demoPriceRows, monthSlices } from './rows.js';

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
  const ids = demoIds(data, catalogue);
  for (const slice of slices) {
    const month = new Date(data.range.start + slice.from * HOUR_MS).toISOString().slice(0, 7);
    const label = `demo data ${month}: prices, flows`;
    progress.begin(label);
    await nextTurn();
    let t = performance.now();
    const prices = await (empty.prices
      ? appendMonthPrices(sql, data, ids, slice)
      : upsertMonthPrices(sql, data, catalogue, slice));
    totals.pricesMs += performance.now() - t;
    t = performance.now();
    const hours = await (empty.borderHours
      ? appendMonthHours(sql, data, ids, slice)
      : upsertMonthHours(sql, data, catalogue, slice));
    totals.borderHoursMs += performance.now() - t;
    totals.prices += prices;
    totals.borderHours += hours;
    progress.end(label, { rows: prices + hours });
  }
  progress.finish();
  return totals;
}

const sortedDistinct = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

async function appendMonthPrices(sql: Sql, data: DemoDataSet, ids: DemoIds, slice: HourSlice): Promise<number> {
  const { payloads, rows } = demoPricePayloads(data, ids.zones, slice);
  await appendPricePayloads(sql, payloads, sortedDistinct(ids.zones));
  return rows;
}

async function appendMonthHours(sql: Sql, data: DemoDataSet, ids: DemoIds, slice: HourSlice): Promise<number> {
  const { payloads, rows } = demoBorderHourPayloads(data, ids.borders, slice);
  await appendBorderHourPayloads(sql, payloads, sortedDistinct(ids.borders));
  return rows;
}

async function upsertMonthPrices(
  sql: Sql,
  data: DemoDataSet,
  catalogue: StoredCatalogue,
  slice: HourSlice,
): Promise<number> {
  const rows = demoPriceRows(data, catalogue, slice);
  await loadPrices(sql, rows);
  return rows.length;
}

async function upsertMonthHours(
  sql: Sql,
  data: DemoDataSet,
  catalogue: StoredCatalogue,
  slice: HourSlice,
): Promise<number> {
  const rows = demoBorderHourRows(data, catalogue, slice);
  await loadBorderHours(sql, rows);
  return rows.length;
}
