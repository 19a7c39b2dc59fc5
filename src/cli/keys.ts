/**
 * `npm run keys -- <command>`: manages API keys in the configured database.
 *   create <name>   creates a key and prints it once (only its hash is stored)
 *   list            lists the keys: id, name, prefix, created, status
 *   revoke <id>     revokes a key (enforced within the authenticator's cache time, 5 s by default)
 * Exit code 1 with a one-line message on failure, 2 on a usage error.
 */
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { KEYS_USAGE, parseKeysArgs, runKeysCommand, UsageError } from '../security/keys-command.js';

async function main(args: readonly string[]): Promise<void> {
  const command = parseKeysArgs(args);
  const db = await openDatabase(loadConfig());
  try {
    await runKeysCommand(db, command, (line) => console.log(line));
  } finally {
    await db.close();
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`keys: ${message.replace(/\s*\n\s*/g, '; ')}`);
  if (error instanceof UsageError) console.error(KEYS_USAGE);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
