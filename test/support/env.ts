/**
 * The one test-side reader of the process environment.
 * TEST_DATABASE_URL: a PostgreSQL server for the tests that also run on PostgreSQL (unset: PGlite only).
 */
export const TEST_DATABASE_URL: string | undefined = process.env.TEST_DATABASE_URL || undefined;
/** TEST_REDIS_URL: a Redis server for the tests of shared rate limit buckets (unset: those tests are skipped). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
/** PATH handed to child processes the tests start (the real CLI); nothing else of this environment is passed on. */
export const CHILD_PATH: string = process.env.PATH ?? '';
/** SWEEP_SEED: replays a property-based sweep with the seed a failure printed (unset: a new seed each run). */
export const SWEEP_SEED: number | undefined = process.env.SWEEP_SEED ? Number(process.env.SWEEP_SEED) : undefined;
/** CI=true: tests that would skip for a missing tool (the browser test without chromium) fail instead. */
export const CI: boolean = process.env.CI === 'true';

/** A database engine the engine-parametrised tests run on. */
export type TestEngine = 'pglite' | 'postgres';

/**
 * TEST_ENGINES=postgres: the servers' half only. The engine-parametrised tests run on PostgreSQL alone,
 * and vitest.config.ts runs only the test files that reach PostgreSQL or Redis (CI's leg 2, after leg 1
 * ran everything on the embedded engine). Unset: PGlite, and PostgreSQL too when TEST_DATABASE_URL is set.
 */
export const SERVERS_ONLY: boolean = parseEngines(process.env.TEST_ENGINES);

function parseEngines(value: string | undefined): boolean {
  if (!value) return false;
  if (value !== 'postgres') throw new Error(`TEST_ENGINES=${value}: the one accepted value is "postgres"`);
  if (!TEST_DATABASE_URL) throw new Error('TEST_ENGINES=postgres needs TEST_DATABASE_URL');
  return true;
}

/** The engines the engine-parametrised tests run on (`describe.each(TEST_BACKENDS)`). */
export const TEST_BACKENDS: readonly TestEngine[] = SERVERS_ONLY
  ? ['postgres']
  : TEST_DATABASE_URL
    ? ['pglite', 'postgres']
    : ['pglite'];
