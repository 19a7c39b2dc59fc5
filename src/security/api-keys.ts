import { createHash, randomBytes } from 'node:crypto';
import { type Database, primaryOf } from '../db/client.js';
import { databaseAppError } from '../db/errors.js';
import { detachedFromRequest } from '../deadline.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { type ApiKeyRecord, findActiveKeyIdByHash, insertApiKey } from '../repositories/keys/api-keys.js';
import type { Clock } from './token-bucket.js';

/** Every key starts with this marker (recognisable by secret scanners). */
export const API_KEY_MARKER = 'emk_';
/** Characters of the key kept in clear as its `prefix` (marker + 8 random characters). */
export const API_KEY_PREFIX_LENGTH = 12;
/** Default lifetime of a cached lookup: a revocation is enforced within this time. */
export const DEFAULT_KEY_CACHE_TTL_MS = 5000;

const KEY_SHAPE = /^emk_[A-Za-z0-9_-]{43}$/;
const MAX_CACHE_ENTRIES = 10_000;

/** SHA-256 hex of a key: what the database stores. A fast hash suits 256-bit random keys. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random key (32 bytes, base64url) with its stored forms. */
export function generateApiKey(): { key: string; prefix: string; keyHash: string } {
  const key = API_KEY_MARKER + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, API_KEY_PREFIX_LENGTH), keyHash: hashApiKey(key) };
}

/** Creates and stores a key; the returned `key` is the only time it exists in clear. */
export async function createApiKey(db: Database, name: string): Promise<ApiKeyRecord & { key: string }> {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('a key needs a name');
  const { key, prefix, keyHash } = generateApiKey();
  return { ...(await insertApiKey(db, { name: trimmed, prefix, keyHash })), key };
}

/** Options of {@link ApiKeyAuthenticator}. */
export interface AuthenticatorOptions {
  /** Cache lifetime of a lookup (positive and negative) in ms; 0 disables the cache. */
  readonly cacheTtlMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/**
 * Checks `x-api-key` values against the stored hashes. Lookups (found or not) are cached by hash for
 * `cacheTtlMs`, so a revoked key keeps working for at most that long on each instance, and invented
 * keys do not each cost a database query; concurrent requests with one key share one lookup, run
 * outside any one of them, so the timeout or departure of the first does not fail the others (a
 * failed lookup is not cached). The cache never holds a key in clear. Lookups go to the primary
 * (a replica may not have a new key or a revocation yet).
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { keyId: Promise<number | null>; expires: number }>();
  private readonly ttl: number;
  private readonly clock: Clock;

  constructor(
    private readonly db: Database,
    private readonly opts: AuthenticatorOptions = {},
  ) {
    this.ttl = opts.cacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS;
    this.clock = opts.clock ?? Date.now;
  }

  /**
   * The key id for a header value.
   * @throws AppError UNAUTHENTICATED for a malformed, unknown or revoked key;
   *   TIMEOUT when the lookup waited past the time limit (a busy pool); DATABASE_UNAVAILABLE when
   *   it fails otherwise.
   */
  async authenticate(headerValue: string): Promise<number> {
    const key = headerValue.trim();
    if (!KEY_SHAPE.test(key)) throw invalidKey();
    const keyId = await this.lookup(hashApiKey(key));
    if (keyId === null) throw invalidKey();
    return keyId;
  }

  /** Forgets every cached lookup (after a revocation in this process). */
  clear(): void {
    this.cache.clear();
  }

  private lookup(keyHash: string): Promise<number | null> {
    const now = this.clock();
    const hit = this.cache.get(keyHash);
    if (hit && hit.expires > now) return hit.keyId;
    const keyId = detachedFromRequest(() => findActiveKeyIdByHash(primaryOf(this.db), keyHash)).catch(
      (err: unknown) => {
        this.cache.delete(keyHash);
        this.opts.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'API key lookup failed');
        const mapped = databaseAppError(err);
        if (mapped?.code === 'TIMEOUT') throw mapped;
        throw new AppError('DATABASE_UNAVAILABLE', 'Service Unavailable: the API key could not be checked');
      },
    );
    if (this.ttl > 0) this.remember(keyHash, keyId, now);
    return keyId;
  }

  private remember(keyHash: string, keyId: Promise<number | null>, now: number): void {
    if (this.cache.size >= MAX_CACHE_ENTRIES) {
      for (const [k, v] of this.cache) if (v.expires <= now) this.cache.delete(k);
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
    }
    this.cache.set(keyHash, { keyId, expires: now + this.ttl });
  }
}

function invalidKey(): AppError {
  return new AppError('UNAUTHENTICATED', 'Invalid API key');
}
