import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/domain/calendar.js';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import { type BorderHourRow, loadBorderHours } from '../../src/repositories/ingest/load.js';
import { inTransaction } from '../../src/db/executor.js';
import { type TestDatabase, createTestDatabase } from '../support/db.js';
import { TEST_DATABASE_URL } from '../support/env.js';

const physical = (borderId: number, from: string): BorderHourRow[] =>
  Array.from({ length: 24 }, (_, i) => ({
    borderId,
    ts: new Date(Date.parse(from) + i * HOUR_MS),
    physicalAbMw: 100,
    physicalBaMw: 0,
    physicalSource: 'entsoe',
  }));

/** Loads `rows` in a transaction that gives up after waiting `ms` for a lock (SQLSTATE 55P03). */
const loadWithin = (t: TestDatabase, rows: BorderHourRow[], ms: number) =>
  inTransaction(t.db, async (sql) => {
    await sql.query(`SET LOCAL lock_timeout = '${ms}ms'`);
    await loadBorderHours(sql, rows, ['physical']);
  });

describe.runIf(TEST_DATABASE_URL)('advisory locks of loads, two schemas of one PostgreSQL database', () => {
  let one: TestDatabase;
  let other: TestDatabase;
  let borderId: number;

  beforeAll(async () => {
    [one, other] = await Promise.all([
      createTestDatabase('postgres', { seed: 'empty' }),
      createTestDatabase('postgres', { seed: 'empty' }),
    ]);
    borderId = (await readCatalogue(one.db)).borders[0]!.id;
  });
  afterAll(async () => {
    await one?.close();
    await other?.close();
  });

  it('a load of a border does not wait for a load of the same border in another schema, and waits for one in its own', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const first = inTransaction(one.db, async (sql) => {
      await loadBorderHours(sql, physical(borderId, '2025-01-01T00:00:00Z'), ['physical']);
      locked();
      await held;
    });
    try {
      await holding;
      await expect(loadWithin(other, physical(borderId, '2025-01-02T00:00:00Z'), 3000)).resolves.toBeUndefined();
      await expect(loadWithin(one, physical(borderId, '2025-01-03T00:00:00Z'), 500)).rejects.toMatchObject({
        code: '55P03',
      });
    } finally {
      release();
      await first;
    }
    await expect(loadWithin(one, physical(borderId, '2025-01-03T00:00:00Z'), 3000)).resolves.toBeUndefined();
    const [{ n }] = (await one.db.rawQuery<{ n: number }>('SELECT count(*)::int AS n FROM border_hour')) as [
      { n: number },
    ];
    expect(n).toBe(48);
  });
});
