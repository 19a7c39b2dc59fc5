import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { SERVERS_ONLY } from './test/support/env.js';
import { serverTestFiles } from './test/support/server-tests.js';

const require = createRequire(import.meta.url);

/**
 * The test files that need a module registry of their own (project `isolated`): they replace modules
 * (`vi.mock`), change globals, narrow module-level state of src/ that later files read (the accepted
 * time zones, `restrictTimeZones`), or add fields to the app's schema builder. Every other file runs in
 * project `shared`, without isolation: each worker evaluates the app's modules once and runs file
 * after file over them (vitest's `isolate: false`), instead of importing the whole app again for each
 * of some 220 files. State a file leaves behind is its own to close (apps, databases, servers).
 */
const ISOLATED = [
  'test/repositories/copy-out.test.ts',
  'test/api/response-lifetime.test.ts',
  'test/api/aggregates-streaming.test.ts',
  'test/demo/thresholds.test.ts',
  'test/unit/operations-surfaces.test.ts',
  'test/unit/dashboard-live-tabs.test.ts',
  'test/unit/time-zone.test.ts',
];

/** TEST_ENGINES=postgres (CI's leg 2): only the files that reach PostgreSQL or Redis. */
const INCLUDE = SERVERS_ONLY ? serverTestFiles(import.meta.dirname) : ['test/**/*.test.ts'];
/** The scale-out scenario has its own run: vitest.scale-out.config.ts. */
const EXCLUDE = [...configDefaults.exclude, 'test/scale-out/**'];

export default defineConfig({
  resolve: {
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    /**
     * Vitest's default (one less than the cores), but at least two files at a time: on a 2-core
     * machine the default ran the suite file by file and left a core idle.
     */
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: INCLUDE, exclude: [...EXCLUDE, ...ISOLATED], isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: SERVERS_ONLY ? INCLUDE.filter((f) => ISOLATED.includes(f)) : ISOLATED,
          exclude: EXCLUDE,
        },
      },
    ],
  },
});
