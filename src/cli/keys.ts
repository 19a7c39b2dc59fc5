/**
 * `npm run keys -- <command>`: manages API keys in the configured database.
 *   create <name>   creates a key and prints it once (only its hash is stored)
 *   list            lists the keys: id, name, prefix, created, status
 *   revoke <id>     revokes a key (enforced within the authenticator's cache time, 5 s by default)
 * Exit codes (src/cli/command-line.ts): 0 done or --help, 1 failed, 2 usage or configuration error.
 */
import { pathToFileURL } from 'node:url';
import { type Config, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { KEYS_USAGE, parseKeysArgs, runKeysCommand } from './keys-command.js';
import { type CliStreams, runCommandLine } from './command-line.js';
import { assertSchemaReady } from './schema-ready.js';

const CLI = {
  script: 'keys',
  usage: `${KEYS_USAGE}
  create <name>   creates a key and prints it once (only its hash is stored)
  list            lists the keys: id, name, prefix, created, status
  revoke <id>     revokes a key (enforced within the API_KEY_CACHE_TTL_MS cache time)
The database is the configured one: PostgreSQL with DATABASE_URL, else the embedded one in PGLITE_DIR.`,
  options: {},
  positionals: true,
} as const;

/** Runs `npm run keys` with `argv`; @returns the exit code. */
export function main(argv: readonly string[], streams: CliStreams & { config?: Config } = {}): Promise<number> {
  const stdout = streams.stdout ?? process.stdout;
  return runCommandLine(
    CLI,
    argv,
    async ({ positionals }) => {
      const command = parseKeysArgs(positionals);
      const db = await openDatabase(streams.config ?? loadConfig());
      try {
        await assertSchemaReady(db);
        await runKeysCommand(db, command, (line) => stdout.write(`${line}\n`));
      } finally {
        await db.close();
      }
    },
    streams,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
