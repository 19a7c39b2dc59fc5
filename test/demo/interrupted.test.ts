/**
 * The demo load is all or nothing: a load that fails midway leaves nothing behind, demo rows
 * without a completion record (a load interrupted before the record existed) are replaced by the
 * whole data set, and upstream prices are never overwritten. Also the migration's backfill, which
 * records a complete legacy load and only that.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { pendingMigrations } from '../../src/db/migrate.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW, TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { killStarted, run, start } from '../support/processes.js';

const TABLES = [
  'price_point',
  'price_daily',
  'border_hour',
  'border_outage',
  'border_daily',
  'border_weekly',
  'zone_daily',
  'demo_load',
];
const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));
const BACKFILL = (() => {
  const name = readdirSync(MIGRATIONS).find((n) => n.endsWith('_demo_load')) as string;
  const sql = readFileSync(`${MIGRATIONS}${name}/migration.sql`, 'utf8');
  return sql.slice(sql.indexOf('INSERT INTO "demo_load"'));
})();

const counts = async (db: Database) =>
  (
    await db.rawQuery<Record<string, number>>(
      `SELECT ${TABLES.map((x) => `(SELECT count(*)::int FROM ${x}) AS ${x}`).join(', ')}`,
    )
  )[0];
const seed = (db: Database) => seedDemo(db, { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM });

describe.each(TEST_BACKENDS)('an interrupted demo load (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });

  it('records the complete data set with its range', async ({ db }) => {
    const rows = await db.rawQuery<{ range_from: Date; range_to: Date }>('SELECT range_from, range_to FROM demo_load');
    expect(rows).toEqual([{ range_from: DEMO_TEST_FROM, range_to: new Date('2025-11-07T00:00:00Z') }]);
  });

  it('leaves nothing behind when the load fails midway, and the next load is complete', async ({ db }) => {
    const complete = await counts(db);
    await db.execScript(`CREATE FUNCTION fail_rollup() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'crash'; END $$;
      CREATE TRIGGER fail_rollup BEFORE INSERT ON border_weekly FOR EACH ROW EXECUTE FUNCTION fail_rollup();`);
    await db.execScript(
      'TRUNCATE price_point, price_daily, border_hour, border_outage, border_daily, border_weekly, zone_daily, demo_load',
    );
    await expect(seed(db)).rejects.toThrow(/crash/);
    expect(Object.values((await counts(db)) ?? {})).toEqual(TABLES.map(() => 0));
    await db.execScript('DROP TRIGGER fail_rollup ON border_weekly');
    expect(await seed(db)).not.toBeNull();
    expect(await counts(db)).toEqual(complete);
  });

  it('replaces demo rows without a completion record by the whole data set', async ({ db }) => {
    const complete = await counts(db);
    await db.execScript(
      'DELETE FROM demo_load; TRUNCATE border_hour, border_daily, border_weekly, zone_daily, border_outage',
    );
    const result = await seed(db);
    expect(result?.prices).toBe(complete?.price_point);
    expect(await counts(db)).toEqual(complete);
  });

  it('loads nothing over upstream prices when no demo load is recorded', async ({ db }) => {
    await db.execScript(
      `DELETE FROM demo_load; UPDATE price_point SET source = 'entsoe' WHERE zone_id = (SELECT min(zone_id) FROM price_point)`,
    );
    const before = await counts(db);
    expect(await seed(db)).toBeNull();
    expect(await counts(db)).toEqual(before);
  });

  it('backfills the record of a complete legacy load, not of one interrupted before its weekly rollup', async ({
    db,
  }) => {
    await db.rawQuery('DELETE FROM demo_load');
    await db.execScript(BACKFILL);
    expect((await counts(db))?.demo_load).toBe(1);
    await db.execScript('DELETE FROM demo_load; DELETE FROM border_weekly;');
    await db.execScript(BACKFILL);
    expect((await counts(db))?.demo_load).toBe(0);
  });
});

/** Points of `db:seed` on a fresh schema to kill it at: while migrating (just after the first migration), then while loading. */
const KILL_POINTS = [
  /applied migration \S+_init/,
  /applied migration|demo data: generated/,
  /demo data: generated/,
  /demo data: \d+ prices/,
];

describe.runIf(TEST_DATABASE_URL)(
  'db:seed killed (SIGKILL) while migrating and loading a fresh PostgreSQL schema',
  () => {
    const schema = `test_killed_${randomBytes(6).toString('hex')}`;
    const env = { DATABASE_URL: TEST_DATABASE_URL!, DATABASE_SCHEMA: schema };
    afterAll(async () => {
      killStarted();
      const db = await openPostgres(testConfig({ DATABASE_SCHEMA: schema }), TEST_DATABASE_URL!);
      await db.execScript(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.close();
    });

    it('is completed by the next run, with every migration recorded once and finished', async () => {
      for (const point of KILL_POINTS) {
        const killed = start('src/cli/seed.ts', [], env);
        await killed.waitFor(point, 60_000);
        killed.child.kill('SIGKILL');
        await killed.exited;
      }
      const last = await run('src/cli/seed.ts', [], env);
      expect(last.code, last.stdout + last.stderr).toBe(0);
      const db = await openPostgres(testConfig({ DATABASE_SCHEMA: schema }), TEST_DATABASE_URL!);
      try {
        expect(await pendingMigrations(db)).toEqual([]);
        expect(
          await db.rawQuery(
            'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NULL AND rolled_back_at IS NULL',
          ),
        ).toEqual([]);
        expect(await db.rawQuery('SELECT count(*)::int AS loads FROM demo_load')).toEqual([{ loads: 1 }]);
      } finally {
        await db.close();
      }
    }, 300_000);
  },
);
