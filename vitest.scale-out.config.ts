import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * The scale-out scenario (test/scale-out/): real Varnish, HAProxy, PgBouncer, a streaming replica
 * and three instances of the built service. Its own run, `npm run test:scale-out` (CI's leg 4),
 * with TEST_DATABASE_URL and TEST_REDIS_URL; `vitest run` leaves it out (vitest.config.ts).
 */
export default defineConfig({
  resolve: {
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/scale-out/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 420_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
