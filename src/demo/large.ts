/**
 * The large demo data set (benchmarks): the same generator as the shipped demo, over `years` whole
 * years back from the 1st of the current month (30 zones, their ~59 catalogue borders; before the
 * DE-AT-LU split, 2018-09-30T22:00Z, DE_AT_LU and its 11 borders in place of DE_LU, AT and their 16:
 * src/demo/history.ts), loaded into PostgreSQL month by month in time order, the way ingestion fills
 * the tables. The stored catalogue must hold the zones of the past the span reaches.
 *
 * Memory: the generator keeps its compact per-hour series for the whole range (typed arrays, about
 * 140 MB a year), while loader rows (the costly part: objects and Dates) exist for one month at a
 * time. Every chunk loads inside ONE transaction, so an interrupted seed leaves nothing behind and
 * "holds prices" means "complete". Rollups are kept in step per chunk; VACUUM ANALYZE runs last.
 */
import type { Database } from '../db/client.js';
import type { ClassificationThresholds } from '../domain/classification.js';
import { ensureCatalogue } from '../repositories/catalogue/catalogue.js';
import { recordDemoLoad } from '../repositories/ingest/demo-data.js';
import { refreshFlowRollups } from '../repositories/flows/rollup.js';
import { hasPrices, loadBorderHours, loadOutages, loadPrices } from '../repositories/ingest/load.js';
import { allowLongStatements, vacuumAnalyzeMarketTables } from '../repositories/ingest/maintenance.js';
import { inTransaction } from '../db/executor.js';
import { HOUR_MS } from './calendar.js';
import { type DemoDataSet, generateDemo } from './generate.js';
import { demoBorderHourRows, demoOutageRows, demoPriceRows, monthSlices } from './rows.js';
import type { SeedDemoResult } from './seed.js';

/** Default span of the large data set, years. */
export const LARGE_DEFAULT_YEARS = 5;

/** Options of {@link seedLargeDemo}. */
export interface LargeDemoOptions {
  /** The clock (physical flows up to here, prices to the end of tomorrow UTC). */
  readonly now: Date;
  /** Whole years before the 1st of now's month (default 5). */
  readonly years?: number;
  readonly seed?: number;
  /** Thresholds of the stored flow classification (the CLASSIFY_* settings); default DEFAULT_THRESHOLDS. */
  readonly thresholds?: ClassificationThresholds;
  readonly log?: (msg: string) => void;
}

/** First day of the large data set: the 1st of now's month, `years` years earlier (UTC). */
export function largeDemoFrom(now: Date, years: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), 1));
}

const mb = (bytes: number): string => `${Math.round(bytes / 1_048_576)} MB`;

/**
 * Generates and loads the large demo data set into an empty PostgreSQL database (migrated, with
 * the catalogue). Does nothing and returns null when the database already holds prices.
 * @throws Error on PGlite (5 years of data is a server workload).
 */
export async function seedLargeDemo(db: Database, options: LargeDemoOptions): Promise<SeedDemoResult | null> {
  if (db.kind !== 'postgres') throw new Error('the large demo data set needs PostgreSQL (set DATABASE_URL)');
  const log = options.log ?? (() => {});
  if (await hasPrices(db)) {
    log('large demo data: the database already holds prices, nothing to seed');
    return null;
  }
  const years = options.years ?? LARGE_DEFAULT_YEARS;
  const catalogue = await ensureCatalogue(db);
  let started = performance.now();
  const data = generateDemo({
    now: options.now,
    from: largeDemoFrom(options.now, years),
    seed: options.seed,
    thresholds: options.thresholds,
  });
  const generate = Math.round(performance.now() - started);
  log(
    `large demo data: generated ${data.zones.length} zones, ${data.borders.length} borders, ${data.hours} hours in ${generate} ms (rss ${mb(process.memoryUsage().rss)})`,
  );
  const totals = { prices: 0, borderHours: 0, outages: 0, pricesMs: 0, borderHoursMs: 0, rollupsMs: 0 };
  const slices = monthSlices(data);
  await inTransaction(db, async (sql) => {
    await allowLongStatements(sql);
    totals.outages = await loadOutages(sql, demoOutageRows(data, catalogue));
    for (const [i, slice] of slices.entries()) {
      let t = performance.now();
      const prices = demoPriceRows(data, catalogue, slice);
      await loadPrices(sql, prices);
      totals.prices += prices.length;
      totals.pricesMs += performance.now() - t;
      t = performance.now();
      const hours = demoBorderHourRows(data, catalogue, slice);
      await loadBorderHours(sql, hours);
      totals.borderHours += hours.length;
      totals.borderHoursMs += performance.now() - t;
      t = performance.now();
      const window = {
        from: new Date(data.range.start + slice.from * HOUR_MS),
        to: new Date(data.range.start + slice.to * HOUR_MS),
      };
      await refreshFlowRollups(sql, window);
      totals.rollupsMs += performance.now() - t;
      if (i % 12 === 11 || i === slices.length - 1) {
        log(
          `large demo data: ${i + 1}/${slices.length} months loaded up to ${window.to.toISOString().slice(0, 10)} (rss ${mb(process.memoryUsage().rss)})`,
        );
      }
    }
    await recordDemoLoad(sql, { from: new Date(data.range.start), to: new Date(data.range.end) });
  });
  started = performance.now();
  await vacuumAnalyzeMarketTables(db);
  const analyze = Math.round(performance.now() - started);
  log(
    `large demo data: ${totals.prices} prices, ${totals.borderHours} border-hours, ${totals.outages} outages; VACUUM ANALYZE in ${analyze} ms`,
  );
  return {
    zones: data.zones.length,
    borders: data.borders.length,
    prices: totals.prices,
    borderHours: totals.borderHours,
    outages: totals.outages,
    from: new Date(data.range.start).toISOString(),
    to: new Date(data.range.end).toISOString(),
    timingsMs: {
      generate,
      prices: Math.round(totals.pricesMs),
      outages: 0,
      borderHours: Math.round(totals.borderHoursMs),
      flowRollups: Math.round(totals.rollupsMs),
      analyze,
    },
  };
}
