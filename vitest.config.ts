import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { SERVERS_ONLY } from './test/support/env.js';
import { serverTestFiles } from './test/support/server-tests.js';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    /** TEST_ENGINES=postgres (CI's leg 2): only the files that reach PostgreSQL or Redis. */
    include: SERVERS_ONLY ? serverTestFiles(import.meta.dirname) : ['test/**/*.test.ts'],
    /** The scale-out scenario has its own run: vitest.scale-out.config.ts. */
    exclude: [...configDefaults.exclude, 'test/scale-out/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    /**
     * Vitest's default (one less than the cores), but at least two files at a time: on a 2-core
     * machine the default ran the suite file by file and left a core idle.
     */
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/global-setup.ts'],
  },
});
