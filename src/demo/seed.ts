/**
 * Loads the demo data set into a database that holds no prices yet, through the bulk loaders.
 * The generator classifies every border-hour with the same code `reclassify` uses
 * (`classifyBorderHour`, with the options' thresholds), so no second pass is needed; a test proves
 * `reclassify` with the same thresholds reproduces it.
 */
import type { Database } from '../db/client.js';
import type { StoredCatalogue } from '../domain/catalogue.js';
import { ensureCatalogue } from '../repositories/catalogue.js';
import { refreshFlowRollups } from '../repositories/flow-rollup.js';
import { analyzeMarketTables, hasPrices, loadBorderHours, loadOutages, loadPrices } from '../repositories/load.js';
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
async function loadDemoPrices(db: Database, data: DemoDataSet, catalogue: StoredCatalogue): Promise<number> {
  const rows = demoPriceRows(data, catalogue);
  await loadPrices(db, rows);
  return rows.length;
}

/** Loads the demo border-hours with their classification. */
async function loadDemoBorderHours(db: Database, data: DemoDataSet, catalogue: StoredCatalogue): Promise<number> {
  const rows = demoBorderHourRows(data, catalogue);
  await loadBorderHours(db, rows);
  return rows.length;
}

async function timed<T>(fn: () => T | Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, Math.round(performance.now() - started)];
}

/**
 * Generates the demo data set for the clock `now` and loads it, unless the database already holds
 * any price (then it does nothing and returns null). Prices refresh their daily rollup in the same
 * transaction; border-hours carry their classification, and the flow rollups (border_daily,
 * zone_daily) are rebuilt from it; planner statistics are refreshed last.
 */
export async function seedDemo(db: Database, options: SeedDemoOptions): Promise<SeedDemoResult | null> {
  const log = options.log ?? (() => {});
  if (await hasPrices(db)) {
    log('demo data: the database already holds prices, nothing to seed');
    return null;
  }
  const catalogue = await ensureCatalogue(db);
  const [data, generate] = await timed(() => generateDemo(options));
  log(`demo data: generated ${data.zones.length} zones, ${data.borders.length} borders in ${generate} ms`);
  const [prices, pricesMs] = await timed(() => loadDemoPrices(db, data, catalogue));
  log(`demo data: ${prices} prices loaded with their daily rollup in ${pricesMs} ms`);
  const [outages, outagesMs] = await timed(() => loadOutages(db, demoOutageRows(data, catalogue)));
  const [borderHours, borderHoursMs] = await timed(() => loadDemoBorderHours(db, data, catalogue));
  log(`demo data: ${borderHours} border-hours and ${outages} outages loaded in ${borderHoursMs + outagesMs} ms`);
  const window = { from: new Date(data.range.start), to: new Date(data.range.end) };
  const [, flowRollups] = await timed(() => refreshFlowRollups(db, window));
  const [, analyze] = await timed(() => analyzeMarketTables(db));
  log(`demo data: flow rollups rebuilt in ${flowRollups} ms, statistics refreshed in ${analyze} ms`);
  return {
    zones: data.zones.length,
    borders: data.borders.length,
    prices,
    borderHours,
    outages,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    timingsMs: { generate, prices: pricesMs, outages: outagesMs, borderHours: borderHoursMs, flowRollups, analyze },
  };
}
