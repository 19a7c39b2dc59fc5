import { afterAll, beforeAll, describe, expect } from 'vitest';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { dayBucket, epochMs, utcBucket } from '../../src/repositories/sql/time.js';
import { inTransaction, readWithSettings } from '../../src/db/executor.js';
import { TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_DATABASE_URL } from '../support/env.js';

/** Instants every 7 minutes around both 2024 DST switches of Europe, a leap day and a year end. */
const INSTANTS = [
  ['2024-02-27', '2024-03-03'],
  ['2024-03-29', '2024-04-02'],
  ['2024-10-25', '2024-10-29'],
  ['2024-12-28', '2025-01-03'],
]
  .map(
    ([from, to]) =>
      `SELECT generate_series(timestamptz '${from} 00:00Z', timestamptz '${to} 00:00Z', interval '7 minutes') AS ts`,
  )
  .join(' UNION ALL ');

describe.each(TEST_BACKENDS)('UTC buckets (%s)', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  it.each(['hour', 'day', 'week'] as const)(
    'puts every instant in the %s date_trunc gives in UTC, whatever the session time zone',
    async (unit) => {
      const bucket = utcBucket(unit, Prisma.sql`i.ts`).text;
      const [row] = await inTransaction(db, async (sql) => {
        await sql.query(`SET LOCAL TIME ZONE 'Europe/Berlin'`);
        return sql.query<{ n: number; differ: number }>(`
        SELECT count(*)::int AS n, count(*) FILTER (WHERE ${bucket} IS DISTINCT FROM date_trunc('${unit}', i.ts, 'UTC'))::int AS differ
        FROM (${INSTANTS}) i`);
      });
      expect(row?.n).toBeGreaterThan(3_000);
      expect(row?.differ).toBe(0);
    },
  );

  it.each([
    ['1D', 'day'],
    ['1W', 'week'],
  ] as const)('puts every UTC date in the %s bucket date_trunc gives', async (resolution, unit) => {
    const bucket = dayBucket(resolution, Prisma.sql`d.day`).text;
    const [row] = await db.rawQuery<{ n: number; differ: number }>(`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE ${bucket} IS DISTINCT FROM date_trunc('${unit}', d.day::timestamp))::int AS differ
      FROM (SELECT generate_series(date '1999-12-01', date '2031-01-31', interval '1 day')::date AS day) d`);
    expect(row?.n).toBeGreaterThan(11_000);
    expect(row?.differ).toBe(0);
  });

  it('gives the exact epoch milliseconds of instants with and without a millisecond part', async () => {
    const instants = [
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T23:59:59.999Z',
      '2026-03-29T01:00:00.001Z',
      '2026-10-25T00:59:59.123Z',
      '2099-12-31T23:00:00.000Z',
    ];
    const rows = await db.rawQuery<{ ms: number }>(
      `SELECT ${epochMs(Prisma.sql`t.ts`).text} AS ms FROM unnest($1::timestamptz[]) WITH ORDINALITY AS t(ts, i) ORDER BY t.i`,
      [instants],
    );
    expect(rows.map((r) => r.ms)).toEqual(instants.map((t) => Date.parse(t)));
    const [series] = await db.rawQuery<{ n: number; differ: number }>(`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE ${epochMs(Prisma.sql`s.ts`).text} <> (extract(epoch FROM s.ts) * 1000)::float8)::int AS differ
      FROM (SELECT generate_series(timestamptz '2024-03-30 00:00:00.001Z', timestamptz '2024-04-01 00:00Z', interval '61.007 seconds') AS ts) s`);
    expect(series?.n).toBeGreaterThan(2_800);
    expect(series?.differ).toBe(0);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('prepared reads on PostgreSQL', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPostgres(testConfig({ DATABASE_SCHEMA: 'public', DATABASE_POOL_SIZE: 1 }), TEST_DATABASE_URL!);
  });
  afterAll(() => db?.close());

  it('prepares a repeated statement once on its connection and reuses it', async () => {
    const sql = 'SELECT $1::int + 1 AS n';
    expect(await db.preparedQuery(sql, [1])).toEqual([{ n: 2 }]);
    expect(await db.preparedQuery(sql, [41])).toEqual([{ n: 42 }]);
    const prepared = await db.rawQuery<{ name: string; statement: string }>(
      'SELECT name, statement FROM pg_prepared_statements',
    );
    expect(prepared).toHaveLength(1);
    expect(prepared[0]).toEqual({ name: expect.stringMatching(/^q_/), statement: sql });
  });
});

describe.skipIf(!TEST_DATABASE_URL)('reads with settings of their own on PostgreSQL', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPostgres(testConfig({ DATABASE_SCHEMA: 'public', DATABASE_POOL_SIZE: 1 }), TEST_DATABASE_URL!);
  });
  afterAll(() => db?.close());

  const SETTINGS = Prisma.sql`SELECT current_setting('jit') AS jit, current_setting('work_mem') AS mem, current_setting('transaction_read_only') AS ro`;

  it('runs the statement with its settings, read-only, and leaves the connection as it was', async () => {
    const [before] = await db.rawQuery<{ jit: string; mem: string }>(SETTINGS.text);
    const [within] = await readWithSettings(db, 'readSettings', { jit: 'off', work_mem: '32MB' }, SETTINGS);
    expect(within).toEqual({ jit: 'off', mem: '32MB', ro: 'on' });
    const [after] = await db.rawQuery<{ jit: string; mem: string; ro: string }>(SETTINGS.text);
    expect(after).toEqual({ ...before, ro: 'off' });
    expect(after!.mem).not.toBe('32MB');
  });

  it('rolls back and passes on a failing statement, the connection still usable', async () => {
    await expect(
      readWithSettings(db, 'readFailing', { work_mem: '32MB' }, Prisma.sql`SELECT 1 / ${0}::int AS n`),
    ).rejects.toThrow(/division by zero/);
    expect(await db.rawQuery('SELECT 1 AS n')).toEqual([{ n: 1 }]);
  });
});
