/**
 * `npm run db:migrate`: applies pending migrations to the configured database (PostgreSQL with
 * DATABASE_URL and DATABASE_SCHEMA, else PGlite in PGLITE_DIR), prints what was applied, exits.
 * Exit codes (src/cli/command-line.ts): 0 done or --help, 1 failed (one line; the stack trace too
 * when LOG_LEVEL is debug or trace), 2 usage or configuration error.
 */
import { pathToFileURL } from 'node:url';
import { type Config, loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { type CliStreams, runCommandLine } from './command-line.js';

const CLI = {
  script: 'db:migrate',
  usage: `usage: npm run db:migrate
Applies the pending migrations of prisma/migrations to the configured database: PostgreSQL with
DATABASE_URL (schema DATABASE_SCHEMA), else the embedded one in PGLITE_DIR.`,
  options: {},
} as const;

function describe(db: Database, config: Config): string {
  return db.kind === 'postgres' ? `PostgreSQL, schema ${db.schema}` : `embedded PGlite at ${config.PGLITE_DIR}`;
}

/** Runs `npm run db:migrate` with `argv`; @returns the exit code. */
export function main(argv: readonly string[], streams: CliStreams = {}): Promise<number> {
  const stdout = streams.stdout ?? process.stdout;
  let verbose = false;
  return runCommandLine(
    CLI,
    argv,
    async () => {
      const config = loadConfig();
      verbose = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace';
      const db = await openDatabase(config);
      try {
        const { applied } = await migrate(db, { log: (msg) => stdout.write(`${msg}\n`) });
        stdout.write(
          applied.length
            ? `${applied.length} migration(s) applied to ${describe(db, config)}.\n`
            : `No pending migration: ${describe(db, config)} is up to date.\n`,
        );
      } finally {
        await db.close();
      }
    },
    { verbose: () => verbose, ...streams },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
