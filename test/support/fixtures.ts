/**
 * Vitest fixtures (`test.extend`) for the tests' databases and the fake ENTSO-E upstream: the one way a
 * test opens a database (test/support/app.ts's `blockApp` builds a block's app over `fileDb`, or over a
 * database opened here for the block; `createTestDatabase` by hand is left to the tests that need what
 * the fixtures do not give, such as two databases at once or a pool of their own on PostgreSQL). Two
 * options pick what a test gets, set for a file or a `describe` block with
 * `dbTest.override({ backend, seed })`:
 * - `backend`: the engine (default `pglite`); a `describe.each(TEST_BACKENDS)` block overrides it.
 * - `seed`: what the database holds besides schema and catalogue (default `empty`).
 *
 * Per test (opened for the test, closed after it): `db`, `upstream`.
 * Per file (opened by the first test of the file that asks, shared by its later tests of the same
 * engine and seed, in every `describe` block of the file, closed after the file's last test): `fileDb`,
 * `fileUpstream`. Each test file has its own databases (its own PostgreSQL schema); blocks that write
 * what a sibling block reads take `db` (per test), a seed of their own, or a block app of their own
 * (`blockApp(it, { own: true })`, test/support/app.ts).
 * What a block sets up once over them (rows, an app) goes in {@link blockSetup}, in place of `beforeAll`.
 */
import { afterAll, test } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { type FakeUpstream, startFakeUpstream } from '../ingest-job/fake-upstream.js';
import { createTestDatabase, type TestBackend, type TestSeed } from './db.js';

/** Resources of one test file, opened once per key on first use and all closed together. */
export class FilePool<T> {
  private readonly open = new Map<string, Promise<{ value: T; close(): Promise<void> }>>();

  /** The resource under `key`, made by `create` the first time. */
  async get(key: string, create: () => Promise<{ value: T; close(): Promise<void> }>): Promise<T> {
    let pending = this.open.get(key);
    if (!pending) {
      pending = create();
      this.open.set(key, pending);
    }
    return (await pending).value;
  }

  /** Closes every resource opened, even when some failed to open or close; rethrows the first failure. */
  async close(): Promise<void> {
    const results = await Promise.allSettled([...this.open.values()].map(async (pending) => (await pending).close()));
    this.open.clear();
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** Opens a test database of `backend` holding `seed`: what every fixture and block app opens. */
export async function openDatabase(backend: TestBackend, seed: TestSeed) {
  const t = await createTestDatabase(backend, { seed });
  return { value: t.db, close: () => t.close() };
}

async function openUpstream() {
  const fake = await startFakeUpstream();
  return { value: fake, close: () => fake.close() };
}

/** `test` with the test databases: options `backend`, `seed`; fixtures `db` (per test), `fileDb` (per file). */
export const dbTest = test
  .extend('backend', 'pglite' as TestBackend)
  .extend('seed', 'empty' as TestSeed)
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  .extend('databases', { scope: 'file' }, async ({}, { onCleanup }) => {
    const pool = new FilePool<Database>();
    onCleanup(() => pool.close());
    return pool;
  })
  .extend('db', async ({ backend, seed }, { onCleanup }): Promise<Database> => {
    const opened = await openDatabase(backend, seed);
    onCleanup(opened.close);
    return opened.value;
  })
  .extend('fileDb', ({ databases, backend, seed }) =>
    databases.get(`${backend}:${seed}`, () => openDatabase(backend, seed)),
  );

/** {@link dbTest} with the fake ENTSO-E upstream: `upstream` (per test), `fileUpstream` (per file and engine). */
export const upstreamTest = dbTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  .extend('upstreams', { scope: 'file' }, async ({}, { onCleanup }) => {
    const pool = new FilePool<FakeUpstream>();
    onCleanup(() => pool.close());
    return pool;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  .extend('upstream', async ({}, { onCleanup }): Promise<FakeUpstream> => {
    const opened = await openUpstream();
    onCleanup(opened.close);
    return opened.value;
  })
  .extend('fileUpstream', ({ upstreams, backend }) => upstreams.get(backend, openUpstream));

/** What the tests of one `describe` block share: see {@link blockSetup}. */
export interface BlockSetup<T> {
  /** Runs `setup` for the block's first test, later tests get the same value (or the same failure). */
  run(setup: () => Promise<T>): Promise<T>;
  /** The value `setup` gave (inside a test or hook, after `run`). */
  readonly value: T;
}

/**
 * What the tests of one `describe` block share over the file's fixtures (rows written once, an app
 * over `fileDb`), in place of a `beforeAll`, which sees no test-scoped fixtures. Call `run` from the
 * block's `it.beforeEach(({ fileDb }) => setup.run(async () => ...))` (vitest opens the fixtures the
 * hook destructures); `teardown` runs after the block's last test once `run` started, with the value
 * (undefined if `setup` failed: close what it opened, as an `afterAll` would).
 */
export function blockSetup<T = void>(teardown?: (value: T | undefined) => unknown): BlockSetup<T> {
  let pending: Promise<T> | undefined;
  let ready: { value: T } | undefined;
  afterAll(async () => {
    if (pending && teardown) await teardown(ready?.value);
  });
  return {
    async run(setup) {
      pending ??= setup();
      ready = { value: await pending };
      return ready.value;
    },
    get value() {
      if (!ready) throw new Error('the block setup has not run yet (use it inside a test or hook)');
      return ready.value;
    },
  };
}
