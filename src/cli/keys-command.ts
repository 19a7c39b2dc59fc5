import type { Database } from '../db/client.js';
import { type ApiKeyRecord, listApiKeys, revokeApiKey } from '../repositories/keys/api-keys.js';
import { UsageError } from './command-line.js';
import { API_KEY_HEADER } from '../http/headers.js';
import { createApiKey } from '../security/api-keys.js';

/** Usage line of the keys command. */
export const KEYS_USAGE = 'usage: npm run keys -- create <name> | list | revoke <id>';

export { UsageError };

/** The commands of `npm run keys`. */
export type KeysCommand = { name: 'create'; keyName: string } | { name: 'list' } | { name: 'revoke'; id: number };

/** Parses the arguments after `npm run keys --`. @throws UsageError */
export function parseKeysArgs(args: readonly string[]): KeysCommand {
  const [command, ...rest] = args;
  if (command === 'list') return { name: 'list' };
  if (command === 'create') {
    const keyName = rest.join(' ').trim();
    if (!keyName) throw new UsageError('create needs a name');
    return { name: 'create', keyName };
  }
  if (command === 'revoke') {
    const id = Number(rest[0]);
    if (!rest[0] || !Number.isInteger(id) || id <= 0) throw new UsageError('revoke needs a key id (see list)');
    return { name: 'revoke', id };
  }
  throw new UsageError(command ? `unknown command ${command}` : 'no command');
}

function row(k: ApiKeyRecord): string {
  const status = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
  return [k.id, k.name, `${k.prefix}…`, k.createdAt.toISOString(), status].join('\t');
}

/**
 * Runs one command, writing its output lines to `print`. `create` prints the key: the only time it
 * is ever shown. @throws Error for an unknown key id
 */
export async function runKeysCommand(db: Database, command: KeysCommand, print: (line: string) => void): Promise<void> {
  if (command.name === 'create') {
    const created = await createApiKey(db, command.keyName);
    print(`Created key ${created.id} (${created.name}). Send it in the ${API_KEY_HEADER} header.`);
    print('It is shown this once and cannot be recovered:');
    print(created.key);
  } else if (command.name === 'list') {
    const keys = await listApiKeys(db);
    if (keys.length === 0) return print('No API keys.');
    print(['id', 'name', 'prefix', 'created', 'status'].join('\t'));
    for (const k of keys) print(row(k));
  } else {
    const key = await revokeApiKey(db, command.id);
    if (!key) throw new Error(`no API key with id ${command.id}`);
    print(`Revoked key ${key.id} (${key.name}) at ${key.revokedAt?.toISOString()}.`);
  }
}
