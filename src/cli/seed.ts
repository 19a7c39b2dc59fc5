/**
 * `npm run db:seed [-- --force] [--large [--years 5]]`: loads the demo data set into the configured
 * database (PostgreSQL with DATABASE_URL and DATABASE_SCHEMA, else PGlite in PGLITE_DIR), with the
 * real clock: prices to the end of tomorrow UTC, physical flows up to now. Migrates and stores the
 * catalogue first; flows are classified with the CLASSIFY_* thresholds. Without --force it does
 * nothing when the database already holds prices; with --force it first deletes the demo rows
 * (upstream `entsoe` rows stay, and then block the seed).
 * `--large` loads the large data set instead (PostgreSQL only): `--years` whole years (default 5)
 * before the 1st of the current month, loaded month by month (src/demo/large.ts).
 * Exit codes (src/cli/command-line.ts): 0 done or --help, 1 failed, 2 usage or configuration error.
 */
import { pathToFileURL } from 'node:url';
import { demoFrom } from '../bootstrap.js';
import { classificationThresholds, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { LARGE_DEFAULT_YEARS, seedLargeDemo } from '../demo/large.js';
import { seedDemo } from '../demo/seed.js';
import { createProgress } from '../ingest/progress.js';
import { ensureCatalogue } from '../repositories/catalogue/catalogue.js';
import { deleteDemoData } from '../repositories/ingest/demo-data.js';
import { type CliStreams, runCommandLine, UsageError } from './command-line.js';

const CLI = {
  script: 'db:seed',
  usage: `usage: npm run db:seed [-- --force] [--large [--years <n>]]
Loads the demo data set into the configured database (PostgreSQL with DATABASE_URL, else the
embedded one in PGLITE_DIR), migrating it first. Does nothing when the database already holds prices.
  --force        deletes the demo rows first, then loads them again
  --large        the large data set instead (PostgreSQL only), month by month
  --years <n>    whole years of the large data set, 1 to 20 (default ${LARGE_DEFAULT_YEARS})`,
  options: {
    force: { type: 'boolean', default: false },
    large: { type: 'boolean', default: false },
    years: { type: 'string' },
  },
} as const;

interface SeedArgs {
  readonly force: boolean;
  /** Years of the large data set, or null for the regular demo data set. */
  readonly largeYears: number | null;
}

function plan(values: { force?: boolean; large?: boolean; years?: string }): SeedArgs {
  if (values.years !== undefined && !values.large) throw new UsageError('--years applies to --large only');
  const years = values.years === undefined ? LARGE_DEFAULT_YEARS : Number(values.years);
  if (!Number.isInteger(years) || years < 1 || years > 20)
    throw new UsageError('--years must be a whole number from 1 to 20');
  return { force: values.force === true, largeYears: values.large ? years : null };
}

async function seed(
  { force, largeYears }: SeedArgs,
  print: (line: string) => void,
  stderr: NodeJS.WritableStream,
): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  if (largeYears !== null && !config.DATABASE_URL) throw new UsageError('--large needs PostgreSQL: set DATABASE_URL');
  const db = await openDatabase(config);
  try {
    await migrate(db, { log: print });
    await ensureCatalogue(db);
    if (force) {
      const gone = await deleteDemoData(db);
      print(`deleted demo data: ${gone.prices} prices, ${gone.borderHours} border-hours, ${gone.outages} outages`);
    }
    const thresholds = classificationThresholds(config);
    const now = new Date();
    const result =
      largeYears === null
        ? await seedDemo(db, {
            now,
            from: demoFrom(config, now),
            thresholds,
            log: print,
            progress: createProgress({
              stream: stderr,
              startLine: (months) => `demo data: loading ${months} month(s)`,
            }),
          })
        : await seedLargeDemo(db, { now, years: largeYears, thresholds, log: print });
    if (result) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      print(`demo data set ${result.from} .. ${result.to} loaded in ${seconds} s`);
    } else if (!force) {
      print('nothing to do: the database already holds prices (use --force to replace the demo data)');
    }
  } finally {
    await db.close();
  }
}

/** Runs `npm run db:seed` with `argv`; @returns the exit code. */
export function main(argv: readonly string[], streams: CliStreams = {}): Promise<number> {
  const stdout = streams.stdout ?? process.stdout;
  const stderr = streams.stderr ?? process.stderr;
  return runCommandLine(
    CLI,
    argv,
    ({ values }) => seed(plan(values), (line) => stdout.write(`${line}\n`), stderr),
    streams,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
