/**
 * Table maintenance after an ingestion run: once a run has loaded at least {@link VACUUM_MIN_ROWS}
 * rows, `VACUUM (ANALYZE)` of the tables its items wrote (facts, rollups, coverage). Autovacuum's
 * default thresholds grow with the table (analyze after 10 %, vacuum after 20 % of the rows): at 20
 * stored years a backfilled year of flows reaches neither, leaving the planner's estimates of the
 * new rows 5x low and the index-only scans visiting the heap (docs/operations.md).
 */
import type { Database } from '../db/client.js';
import { type MarketTable, vacuumAnalyze } from '../repositories/ingest/maintenance.js';
import type { Item } from '../domain/items.js';

/**
 * Rows a run must have loaded (price points, border-hours and outages of its windows) before it
 * vacuums: about two months of every border's flows (43,896 a month) or one month of every zone's
 * 15-minute prices (89,280), 1 % of the 20-year flows; follow-up runs of a few hours stay far below.
 */
export const VACUUM_MIN_ROWS = 100_000;

/** Tables a border item's load writes: its facts reclassified, the flow rollups, the coverage rollup. */
const BORDER_TABLES: readonly MarketTable[] = [
  'border_hour',
  'border_daily',
  'border_weekly',
  'border_period_count',
  'zone_daily',
  'coverage',
];

const WRITTEN: Record<Item, readonly MarketTable[]> = {
  prices: ['price_point', 'price_daily', 'price_hourly', ...BORDER_TABLES],
  flows: BORDER_TABLES,
  schedules: BORDER_TABLES,
  ntc: BORDER_TABLES,
  outages: ['border_outage', ...BORDER_TABLES],
};

/** The tables loads of `items` write (prices reclassify their zones' borders, so the flow tables too), each once. */
export function tablesWritten(items: readonly Item[]): MarketTable[] {
  return [...new Set(items.flatMap((item) => WRITTEN[item]))];
}

/** What a finished run reports to the maintenance. */
export interface RunLoad {
  /** Rows of the windows the run committed. */
  readonly rows: number;
  readonly interrupted: boolean;
}

/**
 * Runs `VACUUM (ANALYZE)` of the tables `items` write when the run loaded at least `minRows` rows
 * (and was not interrupted), and logs it with its duration; a failure is logged, not thrown (the
 * data is committed; autovacuum still gets there).
 * @returns the seconds it took, or null when skipped or failed.
 */
export async function vacuumAfterRun(
  db: Database,
  load: RunLoad,
  items: readonly Item[],
  log: (line: string) => void,
  minRows = VACUUM_MIN_ROWS,
): Promise<number | null> {
  if (load.interrupted || load.rows < minRows) return null;
  const tables = tablesWritten(items);
  const started = performance.now();
  try {
    await vacuumAnalyze(db, tables);
  } catch (error) {
    log(`ingest: VACUUM (ANALYZE) failed: ${(error as Error).message}`);
    return null;
  }
  const seconds = (performance.now() - started) / 1000;
  log(
    `ingest: VACUUM (ANALYZE) ${tables.join(', ')} in ${seconds.toFixed(1)} s (${load.rows} rows loaded, threshold ${minRows})`,
  );
  return seconds;
}
