/**
 * The dashboard's first render in Debian's chromium (playwright-core): navigation start to every
 * default panel drawn (the page's `dashboard:first-render` performance mark), ms, for a cold load
 * (new browser context) and warm loads (same context), in rounds. The app serves the built bundle
 * (`dist/web`, from `npm run build`) over the demo data on PostgreSQL (schema bench_export, seeded on
 * first use as the export bench does). Replaces the bound the browser test once asserted.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApp } from '../src/app.js';
import { prepareDatabase } from '../src/bootstrap.js';
import { testConfig } from '../src/config.js';
import { openPostgres } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { median, spread } from './export.js';
import { CHROMIUM, launchChromium } from './chromium.js';
import { listenOnLoopback } from './loopback.js';

/** `FIRST_RENDER_MARK` of src/dashboard/dashboard.ts (browser code, outside the bench's build). */
const FIRST_RENDER_MARK = 'dashboard:first-render';
/** dist/web, beside the compiled bench in dist/bench. */
const DASHBOARD_DIR = resolve(import.meta.dirname, '../web');
export interface DashboardBenchOptions {
  readonly pgUrl: string;
  readonly rounds: number;
  /** Warm loads per round, after the cold one. */
  readonly warmLoads: number;
}

/** Runs the first-render rounds and returns their Markdown report. */
export async function runDashboardBench(opts: DashboardBenchOptions): Promise<string> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install chromium`);
  if (!existsSync(join(DASHBOARD_DIR, 'index.html'))) throw new Error(`${DASHBOARD_DIR} not built: npm run build`);
  const log = createLogger({ LOG_LEVEL: 'warn' });
  const schema = 'bench_export';
  const config = testConfig({ DATABASE_URL: opts.pgUrl, DATABASE_SCHEMA: schema, SEED_DEMO: true, LOG_LEVEL: 'warn' });
  const db = await openPostgres(config, opts.pgUrl);
  await prepareDatabase(db, { ...config, MIGRATE_ON_START: true }, log, new Date());
  const app = await createApp({
    config: { ...config, RATE_LIMIT_CAPACITY: 1_000_000, RATE_LIMIT_REFILL_PER_SECOND: 1_000 },
    db,
    logger: log,
    dashboardDir: DASHBOARD_DIR,
  });
  const server = await listenOnLoopback(app.yoga, async () => {
    await app.close();
    await db.close();
  });
  const cold: number[] = [];
  const warm: number[] = [];
  const browser = await launchChromium().catch(async (err: unknown) => {
    await server.close();
    throw err;
  });
  try {
    for (let round = 0; round < opts.rounds; round++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Berlin' });
      const load = async () => {
        const page = await context.newPage();
        await page.goto(`${server.base}/`);
        await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FIRST_RENDER_MARK);
        await page.waitForFunction(() => document.body.dataset.state !== 'loading');
        const state = await page.evaluate(() => document.body.dataset.state);
        if (state !== 'ready') throw new Error(`the dashboard's first view ended '${state}', not 'ready': no figure`);
        const ms = await page.evaluate(
          (mark) => performance.getEntriesByName(mark)[0]?.startTime ?? Number.NaN,
          FIRST_RENDER_MARK,
        );
        await page.close();
        return ms;
      };
      cold.push(await load());
      const warmHere: number[] = [];
      for (let i = 0; i < opts.warmLoads; i++) warmHere.push(await load());
      warm.push(median(warmHere));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return [
    `### Dashboard first render (chromium, demo data on PostgreSQL; ${opts.rounds} rounds of one cold and ${opts.warmLoads} warm loads; median (min–max) over rounds, warm = each round's median)`,
    '',
    '| load | first render ms |',
    '|---|---|',
    `| cold | ${spread(cold)} |`,
    `| warm | ${spread(warm)} |`,
    '',
  ].join('\n');
}
