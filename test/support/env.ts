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
