/**
 * The coverage refresh's subject locks on PostgreSQL: a second refresh of the same border in the
 * same schema waits for the first transaction, while a refresh of that border in another schema of
 * the database does not (a long load in one schema stalled ingestion into every other before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshOutageCoverage } from '../../src/repositories/catalogue/coverage-rollup.js';
import { inTransaction } from '../../src/db/executor.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { TEST_DATABASE_URL } from '../support/env.js';

/** Settles with `'done'`, or `'waiting'` when `p` has not settled after `ms`. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => 'done'), new Promise((r) => setTimeout(() => r('waiting'), ms))]);

describe.skipIf(!TEST_DATABASE_URL)('coverage refresh locks on PostgreSQL', () => {
  let a: TestDatabase;
  let b: TestDatabase;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      createTestDatabase('postgres', { seed: 'empty' }),
      createTestDatabase('postgres', { seed: 'empty' }),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('serialise refreshes of one border within a schema, never across schemas', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let locked = () => {};
    const taken = new Promise<void>((r) => (locked = r));
    const holder = inTransaction(a.db, async (sql) => {
      await refreshOutageCoverage(sql, [1]);
      locked();
      await held;
    });
    await taken;
    try {
      expect(await within(refreshOutageCoverage(b.db, [1]), 3_000)).toBe('done');
      const sameSchema = refreshOutageCoverage(a.db, [1]);
      expect(await within(sameSchema, 500)).toBe('waiting');
      release();
      await holder;
      expect(await within(sameSchema, 3_000)).toBe('done');
    } finally {
      release();
      await holder;
    }
  });
});
