import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { currentRequestSignal, withDeadline } from '../../src/deadline.js';
import { AppError } from '../../src/errors.js';
import { listApiKeys, revokeApiKey } from '../../src/repositories/keys/api-keys.js';
import { ApiKeyAuthenticator, createApiKey, generateApiKey, hashApiKey } from '../../src/security/api-keys.js';
import { parseKeysArgs, runKeysCommand, UsageError } from '../../src/cli/keys-command.js';
import { MemoryBucketStore } from '../../src/security/memory-store.js';
import { TokenBucketLimiter } from '../../src/security/token-bucket.js';
import { TEST_BACKENDS } from '../support/env.js';
import { captureLogger, manualClock, migratedDatabase, testServer } from './support.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('key format', () => {
  it('is emk_ plus 32 random bytes in base64url, stored as its sha256 hex and a 12-character prefix', () => {
    const { key, prefix, keyHash } = generateApiKey();
    expect(key).toMatch(/^emk_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(key.slice(0, 12));
    expect(keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(generateApiKey().key).not.toBe(key);
  });
});

describe.each(TEST_BACKENDS)('API keys on %s', (kind) => {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await migratedDatabase(kind)));
  afterAll(() => close());

  it('stores only the hash and the prefix, never the key', async () => {
    const created = await createApiKey(db, '  analytics team ');
    expect(created).toMatchObject({ name: 'analytics team', prefix: created.key.slice(0, 12), revokedAt: null });
    const rows = await db.rawQuery<Record<string, unknown>>('SELECT * FROM api_key WHERE id = $1', [created.id]);
    expect(rows[0]!['key_hash']).toBe(hashApiKey(created.key));
    expect(JSON.stringify(rows)).not.toContain(created.key);
    expect((await listApiKeys(db)).map((k) => k.id)).toContain(created.id);
  });

  it('authenticates a known key, refuses malformed and unknown ones', async () => {
    const { id, key } = await createApiKey(db, 'client');
    const auth = new ApiKeyAuthenticator(db, { cacheTtlMs: 0 });
    expect(await auth.authenticate(key)).toBe(id);
    expect(await code(auth.authenticate('not-a-key'))).toBe('UNAUTHENTICATED');
    expect(await code(auth.authenticate(generateApiKey().key))).toBe('UNAUTHENTICATED');
  });

  it('enforces a revocation once the cached lookup expires (5 s by default)', async () => {
    const { id, key } = await createApiKey(db, 'to revoke');
    const clock = manualClock();
    const auth = new ApiKeyAuthenticator(db, { clock: clock.now });
    expect(await auth.authenticate(key)).toBe(id);
    const revoked = await revokeApiKey(db, id);
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    expect(await auth.authenticate(key)).toBe(id); // cached
    clock.advance(5000);
    expect(await code(auth.authenticate(key))).toBe('UNAUTHENTICATED');
    expect((await revokeApiKey(db, id))?.revokedAt).toEqual(revoked?.revokedAt); // idempotent
    expect(await revokeApiKey(db, 999_999)).toBeNull();
  });

  it('never logs a key, in clear or hashed, and logs its id', async () => {
    const { id, key } = await createApiKey(db, 'logged');
    const log = captureLogger('trace');
    const limiter = new TokenBucketLimiter({ capacity: 5, refillPerSecond: 1, store: new MemoryBucketStore() });
    const { send, gql } = testServer({
      limiter,
      keys: new ApiKeyAuthenticator(db, { logger: log.logger }),
      logger: log.logger,
    });
    const headers = { 'x-api-key': key };
    await send(`/api/v1/ping?api_key=${key}`, { headers });
    await gql('{ hello boom }', headers);
    await send('/api/v1/fail', { headers });
    await send('/api/v1/ping', { headers: { 'x-api-key': `${key.slice(0, -1)}x` } });
    for (let i = 0; i < 6; i++) await send('/api/v1/ping', { headers });
    const text = log.lines.join('\n');
    expect(log.lines.length).toBeGreaterThanOrEqual(10);
    expect(text).not.toContain(key.slice(4, 20));
    expect(text).not.toContain(hashApiKey(key));
    expect(
      log
        .records()
        .filter((r) => r['msg'] === 'request')
        .map((r) => r['keyId']),
    ).toContain(id);
  });

  it('keys command: create prints the key once, list shows its prefix only, revoke marks it', async () => {
    const out: string[] = [];
    await runKeysCommand(db, parseKeysArgs(['create', 'ops', 'team']), (l) => out.push(l));
    const key = out.join('\n').match(/emk_[A-Za-z0-9_-]{43}/)?.[0];
    const id = Number(out[0]!.match(/^Created key (\d+) \(ops team\)/)?.[1]);
    expect(key).toBeDefined();
    const listed: string[] = [];
    await runKeysCommand(db, parseKeysArgs(['list']), (l) => listed.push(l));
    expect(listed).toContain(listed.find((l) => l.startsWith(`${id}\tops team\t${key!.slice(0, 12)}…\t`)));
    expect(listed.join('\n')).not.toContain(key!);
    const revoked: string[] = [];
    await runKeysCommand(db, parseKeysArgs(['revoke', String(id)]), (l) => revoked.push(l));
    expect(revoked[0]).toMatch(new RegExp(`^Revoked key ${id} \\(ops team\\) at \\d{4}-`));
    await expect(runKeysCommand(db, parseKeysArgs(['revoke', '999999']), () => undefined)).rejects.toThrow(
      'no API key with id 999999',
    );
  });

  it('reports a failing key store as 503 DATABASE_UNAVAILABLE', async () => {
    const broken = { rawQuery: () => Promise.reject(new Error('connection refused')) } as unknown as Database;
    const auth = new ApiKeyAuthenticator(broken);
    expect(await code(auth.authenticate(generateApiKey().key))).toBe('DATABASE_UNAVAILABLE');
  });

  it('shares one lookup among concurrent requests with the same key and does not cache a failure', async () => {
    const { id, key } = await createApiKey(db, 'busy client');
    let queries = 0;
    let fail = true;
    const counting = {
      rawQuery: async (sql: string, params?: unknown[]) => {
        queries += 1;
        if (fail) throw new Error('connection refused');
        return db.rawQuery(sql, params);
      },
    } as unknown as Database;
    const auth = new ApiKeyAuthenticator(counting);
    expect(await Promise.all([1, 2, 3].map(() => code(auth.authenticate(key))))).toEqual(
      Array(3).fill('DATABASE_UNAVAILABLE'),
    );
    expect(queries).toBe(1);
    fail = false;
    expect(await Promise.all(Array.from({ length: 10 }, () => auth.authenticate(key)))).toEqual(Array(10).fill(id));
    expect(queries).toBe(2);
  });

  it('runs a shared lookup outside the first request: its timeout does not fail the requests waiting on the same key', async () => {
    const { id, key } = await createApiKey(db, 'dashboard');
    const slow = {
      rawQuery: async (sql: string, params?: unknown[]) => {
        await new Promise((r) => setTimeout(r, 80));
        if (currentRequestSignal()?.aborted) throw new Error('cancelled with the first request');
        return db.rawQuery(sql, params);
      },
    } as unknown as Database;
    const auth = new ApiKeyAuthenticator(slow);
    const first = withDeadline(20, undefined, () => auth.authenticate(key));
    const second = withDeadline(2_000, undefined, () => auth.authenticate(key));
    expect(await code(first)).toBe('TIMEOUT');
    expect(await second).toBe(id);
  });
});

describe('keys command line', () => {
  it('rejects bad arguments as usage errors', () => {
    for (const args of [[], ['rotate'], ['create'], ['create', ' '], ['revoke'], ['revoke', 'x'], ['revoke', '-1']]) {
      expect(() => parseKeysArgs(args)).toThrow(UsageError);
    }
  });

  it('exits 2 with one line pointing at --help on a usage error (npm run keys)', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'rotate'], {
      cwd: root,
      env: {},
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('keys: unknown command rotate (see npm run keys -- --help)\n');
  });
});
