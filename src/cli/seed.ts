/**
 * `npm run db:seed [-- --force] [--large [--years 5]]`: loads the demo data set into the configured
 * database (PostgreSQL with DATABASE_URL and DATABASE_SCHEMA, else PGlite in PGLITE_DIR), with the
 * real clock: prices to the end of tomorrow UTC, physical flows up to now. Migrates and stores the
 * catalogue first; flows are classified with the CLASSIFY_* thresholds. Without --force it does
 * nothing when the database already holds prices; with --force it first deletes the demo rows
 * (upstream `entsoe` rows stay, and then block the seed).
 * `--large` loads the large data set instead (PostgreSQL only): `--years` whole years (default 5)
 * before the 1st of the current month, loaded month by month (src/demo/large.ts).
 * Exit code 1 with a one-line message on failure, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { classificationThresholds, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { LARGE_DEFAULT_YEARS, seedLargeDemo } from '../demo/large.js';
import { seedDemo } from '../demo/seed.js';
import { ensureCatalogue } from '../repositories/catalogue.js';
import { deleteDemoData } from '../repositories/demo-data.js';

const USAGE = 'usage: npm run db:seed [-- --force] [--large [--years <n>]]';

class UsageError extends Error {}

interface SeedArgs {
  readonly force: boolean;
  /** Years of the large data set, or null for the regular demo data set. */
  readonly largeYears: number | null;
}

function parse(args: readonly string[]): SeedArgs {
  let values;
  try {
    values = parseArgs({
      args: [...args],
      options: { force: { type: 'boolean', default: false }, large: { type: 'boolean', default: false }, years: { type: 'string' } },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.years !== undefined && !values.large) throw new UsageError('--years applies to --large only');
  const years = values.years === undefined ? LARGE_DEFAULT_YEARS : Number(values.years);
  if (!Number.isInteger(years) || years < 1 || years > 20) throw new UsageError('--years must be a whole number from 1 to 20');
  return { force: values.force === true, largeYears: values.large ? years : null };
}

async function main(args: readonly string[]): Promise<void> {
  const { force, largeYears } = parse(args);
  const started = performance.now();
  const config = loadConfig();
  if (largeYears !== null && !config.DATABASE_URL) throw new UsageError('--large needs PostgreSQL: set DATABASE_URL');
  const db = await openDatabase(config);
  try {
    await migrate(db, { log: (msg) => console.log(msg) });
    await ensureCatalogue(db);
    if (force) {
      const gone = await deleteDemoData(db);
      console.log(`deleted demo data: ${gone.prices} prices, ${gone.borderHours} border-hours, ${gone.outages} outages`);
    }
    const log = (msg: string) => console.log(msg);
    const thresholds = classificationThresholds(config);
    const result = largeYears === null
      ? await seedDemo(db, { now: new Date(), thresholds, log })
      : await seedLargeDemo(db, { now: new Date(), years: largeYears, thresholds, log });
    if (result) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`demo data set ${result.from} .. ${result.to} loaded in ${seconds} s`);
    } else if (!force) {
      console.log('nothing to do: the database already holds prices (use --force to replace the demo data)');
    }
  } finally {
    await db.close();
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`db:seed failed: ${message.replace(/\s*\n\s*/g, '; ')}`);
  if (error instanceof UsageError) console.error(USAGE);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
