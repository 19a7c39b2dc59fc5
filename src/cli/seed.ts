/**
 * `npm run db:seed [-- --force]`: loads the demo data set into the configured database
 * (PostgreSQL with DATABASE_URL and DATABASE_SCHEMA, else PGlite in PGLITE_DIR), with the real
 * clock: prices to the end of tomorrow UTC, physical flows up to now. Migrates and stores the
 * catalogue first. Without --force it does nothing when the database already holds prices; with
 * --force it first deletes the demo rows (upstream `entsoe` rows stay, and then block the seed).
 * Exit code 1 with a one-line message on failure, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { seedDemo } from '../demo/seed.js';
import { ensureCatalogue } from '../repositories/catalogue.js';
import { deleteDemoData } from '../repositories/demo-data.js';

const USAGE = 'usage: npm run db:seed [-- --force]';

class UsageError extends Error {}

function parse(args: readonly string[]): { force: boolean } {
  try {
    const { values } = parseArgs({ args: [...args], options: { force: { type: 'boolean', default: false } } });
    return { force: values.force === true };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(args: readonly string[]): Promise<void> {
  const { force } = parse(args);
  const started = performance.now();
  const db = await openDatabase(loadConfig());
  try {
    await migrate(db, { log: (msg) => console.log(msg) });
    await ensureCatalogue(db);
    if (force) {
      const gone = await deleteDemoData(db);
      console.log(`deleted demo data: ${gone.prices} prices, ${gone.borderHours} border-hours, ${gone.outages} outages`);
    }
    const result = await seedDemo(db, { now: new Date(), log: (msg) => console.log(msg) });
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
