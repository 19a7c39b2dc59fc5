/**
 * `npm run db:migrate`: applies pending migrations to the configured database (PostgreSQL with
 * DATABASE_URL and DATABASE_SCHEMA, else PGlite in PGLITE_DIR), prints what was applied, exits.
 * Exit code 1 with a one-line message on failure; the stack trace too when LOG_LEVEL is debug or trace.
 */
import { type Config, loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';

function describe(db: Database, config: Config): string {
  return db.kind === 'postgres' ? `PostgreSQL, schema ${db.schema}` : `embedded PGlite at ${config.PGLITE_DIR}`;
}

async function run(config: Config): Promise<void> {
  const db = await openDatabase(config);
  try {
    const { applied } = await migrate(db, { log: (msg) => console.log(msg) });
    console.log(
      applied.length
        ? `${applied.length} migration(s) applied to ${describe(db, config)}.`
        : `No pending migration: ${describe(db, config)} is up to date.`,
    );
  } finally {
    await db.close();
  }
}

function fail(error: unknown, verbose: boolean): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`db:migrate failed: ${message.replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ')}`);
  if (verbose && error instanceof Error && error.stack) console.error(error.stack);
  process.exitCode = 1;
}

let verbose = false;
try {
  const config = loadConfig();
  verbose = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace';
  await run(config);
} catch (error) {
  fail(error, verbose);
}
