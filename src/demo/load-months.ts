/**
 * The demo data set loaded month by month inside the caller's transaction: each calendar month's
 * prices, border-hours and flow rollups, then a turn of the event loop (progress reaches the
 * terminal and Ctrl-C takes effect between months: the embedded engine never yields by itself).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type ProgressReporter, SILENT_PROGRESS } from '../ingest/progress.js';
import type { CatalogueLookup } from '../repositories/catalogue.js';
import { refreshFlowRollups } from '../repositories/flow-rollup.js';
import { loadBorderHours, loadPrices } from '../repositories/load.js';
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
  flowRollupsMs: number;
}

/** Loads every month of `data`, reporting one progress window per month. */
export async function loadDemoMonths(
  sql: Sql,
  data: DemoDataSet,
  catalogue: CatalogueLookup,
  progress: ProgressReporter = SILENT_PROGRESS,
): Promise<MonthLoadTotals> {
  const totals: MonthLoadTotals = { prices: 0, borderHours: 0, pricesMs: 0, borderHoursMs: 0, flowRollupsMs: 0 };
  const slices = monthSlices(data);
  progress.start(slices.length, 0);
  for (const slice of slices) {
    const window = { from: new Date(data.range.start + slice.from * HOUR_MS), to: new Date(data.range.start + slice.to * HOUR_MS) };
    const label = `demo data ${window.from.toISOString().slice(0, 7)}: prices, flows, rollups`;
    progress.begin(label);
    await nextTurn();
    let t = performance.now();
    const prices = demoPriceRows(data, catalogue.zoneIdByCode, slice);
    await loadPrices(sql, prices);
    totals.pricesMs += performance.now() - t;
    t = performance.now();
    const hours = demoBorderHourRows(data, catalogue.borderIdByKey, slice);
    await loadBorderHours(sql, hours);
    totals.borderHoursMs += performance.now() - t;
    t = performance.now();
    await refreshFlowRollups(sql, window);
    totals.flowRollupsMs += performance.now() - t;
    totals.prices += prices.length;
    totals.borderHours += hours.length;
    progress.end(label, { rows: prices.length + hours.length });
  }
  progress.finish();
  return totals;
}
