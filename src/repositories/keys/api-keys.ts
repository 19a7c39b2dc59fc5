import type { Database } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { run } from '../../db/executor.js';

/** A stored API key, without its hash (the key itself is never stored). */
export interface ApiKeyRecord {
  readonly id: number;
  readonly name: string;
  /** First characters of the key, to recognise it in listings. */
  readonly prefix: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

const PUBLIC_COLUMNS = Prisma.sql`id, name, prefix, created_at AS "createdAt", revoked_at AS "revokedAt"`;

/** Stores a new key by its hash. */
export async function insertApiKey(
  db: Database,
  key: { name: string; prefix: string; keyHash: string },
): Promise<ApiKeyRecord> {
  const [row] = await run<ApiKeyRecord>(
    db,
    'insertApiKey',
    Prisma.sql`
    INSERT INTO api_key (name, prefix, key_hash) VALUES (${key.name}, ${key.prefix}, ${key.keyHash}) RETURNING ${PUBLIC_COLUMNS}`,
  );
  if (!row) throw new Error('api_key insert returned no row');
  return row;
}

/** All keys, oldest first, revoked ones included. */
export async function listApiKeys(db: Database): Promise<ApiKeyRecord[]> {
  return run<ApiKeyRecord>(db, 'listApiKeys', Prisma.sql`SELECT ${PUBLIC_COLUMNS} FROM api_key ORDER BY id`);
}

/** The id of the active (not revoked) key with this hash, or null. */
export async function findActiveKeyIdByHash(db: Database, keyHash: string): Promise<number | null> {
  const [row] = await run<{ id: number }>(
    db,
    'findActiveKeyIdByHash',
    Prisma.sql`
    SELECT id FROM api_key WHERE key_hash = ${keyHash} AND revoked_at IS NULL LIMIT 1`,
  );
  return row?.id ?? null;
}

/**
 * Revokes a key (idempotent: an already revoked key keeps its first revocation time).
 * @returns the key after the change, or null when no key has this id.
 */
export async function revokeApiKey(db: Database, id: number, at: Date = new Date()): Promise<ApiKeyRecord | null> {
  await run(
    db,
    'revokeApiKey',
    Prisma.sql`UPDATE api_key SET revoked_at = ${at.toISOString()}::timestamptz WHERE id = ${id} AND revoked_at IS NULL`,
  );
  const [row] = await run<ApiKeyRecord>(
    db,
    'findApiKey',
    Prisma.sql`SELECT ${PUBLIC_COLUMNS} FROM api_key WHERE id = ${id}`,
  );
  return row ?? null;
}
