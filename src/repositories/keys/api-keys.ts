import type { Database } from '../../db/client.js';

/** A stored API key, without its hash (the key itself is never stored). */
export interface ApiKeyRecord {
  readonly id: number;
  readonly name: string;
  /** First characters of the key, to recognise it in listings. */
  readonly prefix: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

const PUBLIC_FIELDS = { id: true, name: true, prefix: true, createdAt: true, revokedAt: true } as const;

/** Stores a new key by its hash. */
export async function insertApiKey(db: Database, key: { name: string; prefix: string; keyHash: string }): Promise<ApiKeyRecord> {
  return db.prisma.apiKey.create({ data: key, select: PUBLIC_FIELDS });
}

/** All keys, oldest first, revoked ones included. */
export async function listApiKeys(db: Database): Promise<ApiKeyRecord[]> {
  return db.prisma.apiKey.findMany({ orderBy: { id: 'asc' }, select: PUBLIC_FIELDS });
}

/** The id of the active (not revoked) key with this hash, or null. */
export async function findActiveKeyIdByHash(db: Database, keyHash: string): Promise<number | null> {
  const row = await db.prisma.apiKey.findFirst({ where: { keyHash, revokedAt: null }, select: { id: true } });
  return row?.id ?? null;
}

/**
 * Revokes a key (idempotent: an already revoked key keeps its first revocation time).
 * @returns the key after the change, or null when no key has this id.
 */
export async function revokeApiKey(db: Database, id: number, at: Date = new Date()): Promise<ApiKeyRecord | null> {
  await db.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
  return db.prisma.apiKey.findUnique({ where: { id }, select: PUBLIC_FIELDS });
}
