/**
 * Loads the demo data set, all or nothing, into a database without it, through the bulk loaders.
 * The generator classifies every border-hour with the same code `reclassify` uses
 * (`classifyBorderHour`, with the options' thresholds), so no second pass is needed; a test proves
 * `reclassify` with the same thresholds reproduces it.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '../db/client.js';
import type { ProgressReporter } from '../ingest/progress.js';
import type { StoredCatalogue } from '../domain/catalogue.js';
import { ensureCatalogue } from '../repositories/catalogue/catalogue.js';
import { allowLoadMemory, allowLongStatements, analyzeMarketTables } from '../repositories/ingest/maintenance.js';
import {
  type DemoLoadState,
  deleteDemoData,
  demoLoadState,
  lockDemoLoad,
  recordDemoLoad,
  truncateEmptyMarketTables,
} from '../repositories/ingest/demo-data.js';
import { type LoadWindow, loadOutages } from '../repositories/ingest/load.js';
import { inTransaction, type Sql } from '../db/executor.js';
import { type DemoDataSet, type DemoOptions, generateDemo } from './generate.js';
import { loadDemoMonths } from './load-months.js';
import { HOUR_MS } from './calendar.js';
import { dropIndexes, restoreIndexes } from '../repositories/ingest/deferred-indexes.js';
import { rebuildCoverage } from '../repositories/catalogue/coverage-rollup.js';
import { refreshFlowRollups } from '../repositories/flows/rollup.js';
import { appendDemoPriceDays, refreshPriceDaily } from '../repositories/prices/rollup.js';
import { appendPriceHours } from '../repositories/prices/hourly.js';
import { demoPriceDays } from './price-daily.js';
import { demoPriceHours } from './price-hourly.js';
import { demoIds, demoOutageRows, monthSlices } from './rows.js';

/** Options of {@link seedDemo}: the generator's options plus a log and a progress display. */
export interface SeedDemoOptions extends DemoOptions {
  readonly log?: (msg: string) => void;
  /** Told of each calendar month loaded (one progress window per month). */
  readonly progress?: ProgressReporter;
  /** The data set already generated with these options (and how long that took), else generated here. */
  readonly generated?: GeneratedDemo;
  /** Told of each step after the months' load as it begins (`ms` null) and ends (its time, ms). */
  readonly step?: (step: LoadStep, ms: number | null) => void;
}

/** The steps of a demo load after its months: what a start-up shows while they run. */
export type LoadStep = 'building indexes' | 'price rollups' | 'flow rollups' | 'committing' | 'refreshing statistics';

/** A generated demo data set and its generation time (ms). */
export interface GeneratedDemo {
  readonly data: DemoDataSet;
  readonly ms: number;
}

/** What was loaded, and how long each step took (ms). */
export interface SeedDemoResult {
  readonly zones: number;
  readonly borders: number;
  readonly prices: number;
  readonly borderHours: number;
  readonly outages: number;
  /** [from, to) of the data set, ISO UTC. */
  readonly from: string;
  readonly to: string;
  readonly timingsMs: Readonly<
    Record<'generate' | 'prices' | 'outages' | 'borderHours' | 'flowRollups' | 'analyze', number>
  > &
    Readonly<Partial<Record<'indexes' | 'priceRollups', number>>>;
}

/** Memory of the load's sorts and hash tables (index builds, rollups over the whole window) before they spill to disk. */
const LOAD_MEMORY = '256MB';

/** The price tables a load must have emptied to compute the price rollups from the generated arrays. */
const PRICE_TABLES = ['price_point', 'price_daily', 'price_hourly'];

/** The tables whose indexes are built after the load when it emptied them. */
const BULK_TABLES = ['price_point', 'border_hour'];

/**
 * Runs one step of the load, after a turn of the event loop, and measures it (ms). The embedded
 * engine runs in this thread and never yields by itself: without these turns, log lines would
 * reach the terminal and Ctrl-C would take effect only once the whole load is over.
 */
async function timed<T>(fn: () => T | Promise<T>): Promise<[T, number]> {
  await nextTurn();
  const started = performance.now();
  const value = await fn();
  return [value, Math.round(performance.now() - started)];
}

/** {@link timed}, told to `options.step` as it begins and ends. */
async function timedStep<T>(options: SeedDemoOptions, step: LoadStep, fn: () => T | Promise<T>): Promise<[T, number]> {
  options.step?.(step, null);
  const result = await timed(fn);
  options.step?.(step, result[1]);
  return result;
}

/** Why {@link seedDemo} loaded nothing, as a log line. */
function skipReason(state: DemoLoadState): string | null {
  if (state.complete) return 'demo data: already loaded, nothing to seed';
  if (state.upstreamPrices) return 'demo data: the database already holds upstream prices, nothing to seed';
  return null;
}

/**
 * Generates the demo data set for the clock `now` and loads it in ONE transaction that ends by
 * recording the load (`demo_load`), so an interrupted load leaves nothing visible; demo rows
 * without that record (an interrupted load from before it existed) are deleted in the same
 * transaction. Does nothing and returns null when a demo load is recorded or upstream prices are
 * stored. Market tables holding no row are emptied in the transaction (TRUNCATE: the load then
 * skips the WAL on the embedded engine) and the price and border-hour indexes are built after the
 * load; it loads month by month: prices, and border-hours with their classification; then the
 * price rollup (month by month) and the flow rollups (whole window); planner statistics last.
 */
export async function seedDemo(db: Database, options: SeedDemoOptions): Promise<SeedDemoResult | null> {
  const log = options.log ?? (() => {});
  const skip = skipReason(await demoLoadState(db));
  if (skip) {
    log(skip);
    return null;
  }
  const catalogue = await ensureCatalogue(db);
  const [data, generate] = options.generated
    ? [options.generated.data, options.generated.ms]
    : await timed(() => generateDemo(options));
  log(`demo data: generated ${data.zones.length} zones, ${data.borders.length} borders in ${generate} ms`);
  const window = { from: new Date(data.range.start), to: new Date(data.range.end) };
  let committing = 0;
  const loaded = await inTransaction(db, async (sql) => {
    await lockDemoLoad(sql);
    const skipNow = skipReason(await demoLoadState(sql));
    if (skipNow) {
      log(skipNow);
      return null;
    }
    const gone = await deleteDemoData(sql);
    if (gone.prices + gone.borderHours + gone.outages > 0) {
      log(
        `demo data: replacing an interrupted load (${gone.prices} prices, ${gone.borderHours} border-hours, ${gone.outages} outages)`,
      );
    }
    await truncateEmptyMarketTables(sql);
    const result = await loadDemo(sql, data, catalogue, window, options);
    options.step?.('committing', null);
    committing = performance.now();
    return result;
  });
  if (!loaded) return null;
  options.step?.('committing', Math.round(performance.now() - committing));
  const [, analyze] = await timedStep(options, 'refreshing statistics', () => analyzeMarketTables(db));
  log(`demo data: committed, statistics refreshed in ${analyze} ms`);
  return {
    zones: data.zones.length,
    borders: data.borders.length,
    ...loaded.counts,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    timingsMs: { generate, ...loaded.timings, analyze },
  };
}

/** The price rollup month by month (its sums are exact: numeric), each an index range scan. */
async function refreshMonthlyPriceDaily(sql: Sql, data: DemoDataSet): Promise<void> {
  for (const slice of monthSlices(data)) {
    await refreshPriceDaily(sql, {
      from: new Date(data.range.start + slice.from * HOUR_MS),
      to: new Date(data.range.start + slice.to * HOUR_MS),
    });
  }
}

/**
 * The price rollups of the demo prices: computed from the generated arrays (bit-identical, see
 * `demoPriceDays` and `demoPriceHours`) when the load emptied the price tables, else refreshed
 * from the stored prices month by month.
 */
async function buildPriceDaily(
  sql: Sql,
  data: DemoDataSet,
  catalogue: StoredCatalogue,
  emptied: readonly string[],
): Promise<void> {
  if (!PRICE_TABLES.every((t) => emptied.includes(t))) return refreshMonthlyPriceDaily(sql, data);
  const ids = demoIds(data, catalogue).zones;
  const zoneId = new Map(data.prices.map((z, i) => [z.code, ids[i] as number]));
  await appendDemoPriceDays(
    sql,
    demoPriceDays(data).map(({ zone, ...day }) => ({ zoneId: zoneId.get(zone) as number, ...day })),
  );
  const hours = demoPriceHours(data);
  await appendPriceHours(sql, {
    ...hours,
    start: new Date(hours.start),
    zoneIds: hours.zones.map((zone) => zoneId.get(zone) as number),
  });
}

/** Loads the data set and records it, inside the caller's transaction. */
async function loadDemo(
  sql: Sql,
  data: DemoDataSet,
  catalogue: StoredCatalogue,
  window: LoadWindow,
  options: SeedDemoOptions,
) {
  const log = options.log ?? (() => {});
  await allowLongStatements(sql);
  await allowLoadMemory(sql, LOAD_MEMORY);
  const emptied = await truncateEmptyMarketTables(sql);
  const empty = { prices: emptied.includes('price_point'), borderHours: emptied.includes('border_hour') };
  const deferred = await dropIndexes(
    sql,
    BULK_TABLES.filter((t) => emptied.includes(t)),
  );
  const [outages, outagesMs] = await timed(() => loadOutages(sql, demoOutageRows(data, catalogue)));
  const [totals, monthsMs] = await timed(() => loadDemoMonths(sql, data, catalogue, empty, options.progress));
  const [, indexes] = await timedStep(options, 'building indexes', () => restoreIndexes(sql, deferred));
  const [, priceRollups] = await timedStep(options, 'price rollups', () =>
    buildPriceDaily(sql, data, catalogue, emptied),
  );
  const [, flowRollups] = await timedStep(options, 'flow rollups', async () => {
    await refreshFlowRollups(sql, window);
    await rebuildCoverage(sql);
  });
  log(
    `demo data: ${totals.prices} prices, ${totals.borderHours} border-hours and ${outages} outages loaded in ${monthsMs + outagesMs} ms, indexes built in ${indexes} ms, rollups in ${priceRollups + flowRollups} ms`,
  );
  await timed(() => recordDemoLoad(sql, window));
  const ms = (x: number) => Math.round(x);
  return {
    counts: { prices: totals.prices, borderHours: totals.borderHours, outages },
    timings: {
      prices: ms(totals.pricesMs),
      outages: outagesMs,
      borderHours: ms(totals.borderHoursMs),
      indexes,
      priceRollups,
      flowRollups,
    },
  };
}
