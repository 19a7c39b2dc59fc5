/**
 * Loads the demo data set, all or nothing, into a database without it, through the bulk loaders.
 * The generator classifies every border-hour with the same code `reclassify` uses
 * (`classifyBorderHour`, with the options' thresholds), so no second pass is needed; a test proves
 * `reclassify` with the same thresholds reproduces it.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '../db/client.js';
import { type CatalogueLookup, ensureCatalogue } from '../repositories/catalogue.js';
import { refreshFlowRollups } from '../repositories/flow-rollup.js';
import { allowLongStatements } from '../repositories/bulk.js';
import { type DemoLoadState, deleteDemoData, demoLoadState, lockDemoLoad, recordDemoLoad } from '../repositories/demo-data.js';
import { analyzeMarketTables, loadBorderHours, type LoadWindow, loadOutages, loadPrices } from '../repositories/load.js';
import { type Executor, inTransaction, type Sql } from '../repositories/sql.js';
import { type DemoDataSet, type DemoOptions, generateDemo } from './generate.js';
import { demoBorderHourRows, demoOutageRows, demoPriceRows } from './rows.js';

/** Options of {@link seedDemo}: the generator's options plus a progress log. */
export interface SeedDemoOptions extends DemoOptions {
  readonly log?: (msg: string) => void;
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
  readonly timingsMs: Readonly<Record<'generate' | 'prices' | 'outages' | 'borderHours' | 'flowRollups' | 'analyze', number>>;
}

/** Loads the demo prices; the rows are garbage once it returns (keeps peak memory down). */
async function loadDemoPrices(db: Executor, data: DemoDataSet, catalogue: CatalogueLookup): Promise<number> {
  const rows = demoPriceRows(data, catalogue.zoneIdByCode);
  await loadPrices(db, rows);
  return rows.length;
}

/** Loads the demo border-hours with their classification. */
async function loadDemoBorderHours(db: Executor, data: DemoDataSet, catalogue: CatalogueLookup): Promise<number> {
  const rows = demoBorderHourRows(data, catalogue.borderIdByKey);
  await loadBorderHours(db, rows);
  return rows.length;
}

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
 * stored. Prices refresh their daily rollup; border-hours carry their classification, and the flow
 * rollups (border_daily, zone_daily) are rebuilt from it; planner statistics are refreshed last.
 */
export async function seedDemo(db: Database, options: SeedDemoOptions): Promise<SeedDemoResult | null> {
  const log = options.log ?? (() => {});
  const skip = skipReason(await demoLoadState(db));
  if (skip) {
    log(skip);
    return null;
  }
  const catalogue = await ensureCatalogue(db);
  const [data, generate] = await timed(() => generateDemo(options));
  log(`demo data: generated ${data.zones.length} zones, ${data.borders.length} borders in ${generate} ms`);
  const window = { from: new Date(data.range.start), to: new Date(data.range.end) };
  const loaded = await inTransaction(db, async (sql) => {
    await lockDemoLoad(sql);
    const skipNow = skipReason(await demoLoadState(sql));
    if (skipNow) {
      log(skipNow);
      return null;
    }
    const gone = await deleteDemoData(sql);
    if (gone.prices + gone.borderHours + gone.outages > 0) {
      log(`demo data: replacing an interrupted load (${gone.prices} prices, ${gone.borderHours} border-hours, ${gone.outages} outages)`);
    }
    return loadDemo(sql, data, catalogue, window, log);
  });
  if (!loaded) return null;
  const [, analyze] = await timed(() => analyzeMarketTables(db));
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

/** Loads the data set and records it, inside the caller's transaction. */
async function loadDemo(sql: Sql, data: DemoDataSet, catalogue: CatalogueLookup, window: LoadWindow, log: (msg: string) => void) {
  await allowLongStatements(sql);
  const [prices, pricesMs] = await timed(() => loadDemoPrices(sql, data, catalogue));
  log(`demo data: ${prices} prices loaded with their daily rollup in ${pricesMs} ms`);
  const [outages, outagesMs] = await timed(() => loadOutages(sql, demoOutageRows(data, catalogue.borderIdByKey)));
  const [borderHours, borderHoursMs] = await timed(() => loadDemoBorderHours(sql, data, catalogue));
  log(`demo data: ${borderHours} border-hours and ${outages} outages loaded in ${borderHoursMs + outagesMs} ms`);
  const [, flowRollups] = await timed(() => refreshFlowRollups(sql, window));
  log(`demo data: flow rollups rebuilt in ${flowRollups} ms`);
  await timed(() => recordDemoLoad(sql, window));
  return {
    counts: { prices, borderHours, outages },
    timings: { prices: pricesMs, outages: outagesMs, borderHours: borderHoursMs, flowRollups },
  };
}
