/**
 * Test databases. PGlite: each call restores its own in-memory database from a dump built once per
 * run by test/support/global-setup.ts (migrated, catalogue, and for `demo` the small demo data set).
 * PostgreSQL (TEST_DATABASE_URL): a fresh random schema per call, migrated and seeded, dropped on close.
 * `wire`: PGlite on a temporary data directory restored from the same dump, then served by the engine
 * thread and reached over the wire protocol as the server reaches it (a first start that migrates and
 * seeds through the wire is test/demo/first-start.test.ts and test/db/embedded-server.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { testConfig } from '../../src/config.js';
import { type Database, openPglite, openPostgres } from '../../src/db/client.js';
import { startEngineThread } from '../../src/db/engine-thread.js';
import { migrate } from '../../src/db/migrate.js';
import { seedDemo } from '../../src/demo/seed.js';
import { ensureCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import { TEST_DATABASE_URL } from './env.js';

/** The clock of the test demo data set: physical flows up to here, prices to the end of 2025-11-06 UTC. */
export const DEMO_TEST_NOW = new Date('2025-11-05T12:00:00Z');

/**
 * First day of the test demo data set (a Monday). Hourly prices until 2025-10-01, 15-minute from
 * then; the 2025-10-26 DST change is inside. Data ends 2025-11-07T00:00Z (end of tomorrow).
 */
export const DEMO_TEST_FROM = new Date('2025-09-22T00:00:00Z');

/** What a test database holds besides the schema and the catalogue. */
export type TestSeed = 'demo' | 'empty';

/** A database for one test file or test, and how to dispose of it. */
export interface TestDatabase {
  readonly db: Database;
  close(): Promise<void>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the PGlite dump (tarball) with the test demo data set. */
    pgliteDemoDump: string;
    /** Path of the PGlite dump (tarball) with schema and catalogue only. */
    pgliteEmptyDump: string;
  }
}

/** Migrates, stores the catalogue and (for `demo`) seeds the test demo data set. */
export async function prepareTestDatabase(db: Database, seed: TestSeed): Promise<void> {
  await migrate(db);
  await ensureCatalogue(db);
  if (seed === 'demo') await seedDemo(db, { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM });
}

const fallbackDumps = new Map<TestSeed, Promise<Blob>>();

/** The dump for `seed`: the file from global setup, else one built in this worker (slower). */
async function dumpFor(seed: TestSeed): Promise<Blob> {
  const path = seed === 'demo' ? inject('pgliteDemoDump') : inject('pgliteEmptyDump');
  if (path) return new Blob([readFileSync(path)]);
  let pending = fallbackDumps.get(seed);
  if (!pending) {
    pending = (async () => {
      const db = await openPglite('memory://');
      try {
        await prepareTestDatabase(db, seed);
        return await (db.pglite as NonNullable<Database['pglite']>).dumpDataDir('none');
      } finally {
        await db.close();
      }
    })();
    fallbackDumps.set(seed, pending);
  }
  return pending;
}

async function createPostgres(seed: TestSeed): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set: PostgreSQL tests cannot run');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres(testConfig({ DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 4 }), TEST_DATABASE_URL);
  const drop = async () => {
    try {
      await db.execScript(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await db.close();
    }
  };
  try {
    await prepareTestDatabase(db, seed);
  } catch (error) {
    await drop();
    throw error;
  }
  return { db, close: drop };
}

/** Which engine a test database runs on; `wire` is the embedded server's path (see the module comment). */
export type TestBackend = 'pglite' | 'postgres' | 'wire';

async function createWire(seed: TestSeed): Promise<TestDatabase> {
  const root = mkdtempSync(join(tmpdir(), 'wire-db-'));
  try {
    await (await openPglite(root, await dumpFor(seed))).close();
    const engine = await startEngineThread(root);
    const db = await openPostgres(testConfig({ DATABASE_POOL_SIZE: 4 }), engine.url, { embedded: true }).catch(
      async (error: unknown) => {
        await engine.stop();
        throw error;
      },
    );
    return {
      db,
      async close() {
        try {
          await db.close();
          await engine.stop();
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A fresh database of the given engine: migrated, with the catalogue, and for `demo` the test demo
 * data set (clock {@link DEMO_TEST_NOW}, from {@link DEMO_TEST_FROM}). Call `close` when done.
 */
export async function createTestDatabase(kind: TestBackend, opts: { seed: TestSeed }): Promise<TestDatabase> {
  if (kind === 'postgres') return createPostgres(opts.seed);
  if (kind === 'wire') return createWire(opts.seed);
  const db = await openPglite('memory://', await dumpFor(opts.seed));
  return { db, close: () => db.close() };
}

/** Engines the database tests run on: the one list, test/support/env.ts. */
export { TEST_BACKENDS } from './env.js';
