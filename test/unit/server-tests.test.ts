/**
 * CI's leg 2 (TEST_ENGINES=postgres) runs only the test files that reach PostgreSQL or Redis, after
 * leg 1 ran every file on the embedded engine: a server test left out of the list would run nowhere.
 */
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { serverTestFiles } from '../support/server-tests.js';

const files = serverTestFiles(PROJECT_ROOT);

describe("leg 2's test files", () => {
  it('hold the tests gated on a server, those looping over the engines, and those opening PostgreSQL by name', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'test/process/pgbouncer.test.ts',
        'test/security/redis.test.ts',
        'test/security/api-keys.test.ts',
        'test/db/migrations.test.ts',
        'test/api/prices-parity.test.ts',
        'test/api/time-limit.test.ts',
      ]),
    );
  });

  it('leave out the files that never reach a server, and the scale-out scenario (leg 4)', () => {
    for (const f of ['test/unit/time.test.ts', 'test/security/plugin.test.ts', 'test/scale-out/scenario.test.ts'])
      expect(files).not.toContain(f);
  });
});
