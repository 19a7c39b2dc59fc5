import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { type Database, openPglite, openPostgres } from '../../src/db/client.js';
import { migrate, pendingMigrations } from '../../src/db/migrate.js';
import { TEST_BACKENDS, TEST_DATABASE_URL, type TestEngine } from '../support/env.js';

const PROJECT_MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));
const INIT = readdirSync(PROJECT_MIGRATIONS).find((name) => name.endsWith('_init'))!;
const SECOND = '20990101000000_add_api_key_note';
const ALL = [
  ...readdirSync(PROJECT_MIGRATIONS)
    .filter((n) => /^\d{14}_/.test(n))
    .sort(),
  SECOND,
];

/** A scratch copy of prisma/migrations plus one small migration of our own, free to tamper with. */
function scratchMigrations(): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-test-'));
  cpSync(PROJECT_MIGRATIONS, dir, { recursive: true });
  addMigration(dir, SECOND, 'ALTER TABLE "api_key" ADD COLUMN "note" TEXT;\n');
  return dir;
}

function addMigration(dir: string, name: string, sql: string): void {
  mkdirSync(join(dir, name));
  writeFileSync(join(dir, name, 'migration.sql'), sql);
}

interface Row {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
  applied_steps_count: number;
}

const history = (db: Database) =>
  db.rawQuery<Row>('SELECT * FROM _prisma_migrations ORDER BY started_at, migration_name');

/** Hands out an emptied database per test (PGlite: schema public recreated; PostgreSQL: the file's schema dropped). */
interface Backend {
  fresh(): Promise<Database>;
  /** A second connection to the same database (concurrency). */
  another(): Promise<Database>;
  close(): Promise<void>;
}

async function pgliteBackend(): Promise<Backend> {
  const db = await openPglite('memory://');
  return {
    async fresh() {
      await db.execScript('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      return db;
    },
    another: async () => db,
    close: () => db.close(),
  };
}

async function postgresBackend(url: string): Promise<Backend> {
  const schema = `test_migrations_${randomBytes(6).toString('hex')}`;
  const config = testConfig({ DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 3 });
  const db = await openPostgres(config, url);
  const others: Database[] = [];
  return {
    async fresh() {
      await db.execScript(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      return db;
    },
    async another() {
      const other = await openPostgres(config, url);
      others.push(other);
      return other;
    },
    async close() {
      await db.execScript(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all([db, ...others].map((d) => d.close()));
    },
  };
}

const makers: Record<TestEngine, () => Promise<Backend>> = {
  pglite: pgliteBackend,
  postgres: () => postgresBackend(TEST_DATABASE_URL!),
};
const backends = TEST_BACKENDS.map((kind) => [kind, makers[kind]] as const);

describe.each(backends)('migrations on %s', (_kind, makeBackend) => {
  let backend: Backend;
  let db: Database;
  let dir: string;

  beforeAll(async () => {
    backend = await makeBackend();
  });
  afterAll(async () => {
    await backend?.close();
  });
  beforeEach(async () => {
    db = await backend.fresh();
    dir = scratchMigrations();
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration in order, and nothing when run again', async () => {
    expect(await migrate(db, { dir })).toEqual({ applied: ALL });
    expect(await migrate(db, { dir })).toEqual({ applied: [] });
    const rows = await db.rawQuery('SELECT note FROM api_key');
    expect(rows).toEqual([]);
  });

  it('records each migration as Prisma does: sha256 of migration.sql, finished_at, one step', async () => {
    const before = Date.now();
    await migrate(db, { dir });
    const rows = await history(db);
    expect(rows.map((r) => r.migration_name)).toEqual(ALL);
    for (const row of rows) {
      const sql = readFileSync(join(dir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.started_at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
      expect(row).toMatchObject({ rolled_back_at: null, logs: null, applied_steps_count: 1 });
    }
  });

  it('creates the history table with the column types Prisma uses', async () => {
    await migrate(db, { dir });
    const columns = await db.rawQuery<{ column_name: string; data_type: string; len: number | null }>(
      `SELECT column_name, data_type, character_maximum_length AS len FROM information_schema.columns
        WHERE table_name = '_prisma_migrations' AND table_schema = $1 ORDER BY ordinal_position`,
      [db.schema],
    );
    expect(columns.map((c) => [c.column_name, c.data_type, c.len])).toEqual([
      ['id', 'character varying', 36],
      ['checksum', 'character varying', 64],
      ['finished_at', 'timestamp with time zone', null],
      ['migration_name', 'character varying', 255],
      ['logs', 'text', null],
      ['rolled_back_at', 'timestamp with time zone', null],
      ['started_at', 'timestamp with time zone', null],
      ['applied_steps_count', 'integer', null],
    ]);
  });

  it('refuses to run when an applied migration was modified, naming it', async () => {
    await migrate(db, { dir });
    writeFileSync(join(dir, SECOND, 'migration.sql'), 'ALTER TABLE "api_key" ADD COLUMN "note" VARCHAR(80);\n');
    addMigration(dir, '20990202000000_later', 'CREATE TABLE later (id int);');
    await expect(migrate(db, { dir })).rejects.toThrow(new RegExp(`migration ${SECOND} was modified`));
    expect(await db.rawQuery(`SELECT to_regclass('later')::text AS t`)).toEqual([{ t: null }]);
  });

  it('accepts an applied migration whose file only changed line endings', async () => {
    await migrate(db, { dir });
    const file = join(dir, INIT, 'migration.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    expect(await migrate(db, { dir })).toEqual({ applied: [] });
  });

  it('records a failed migration, rolls it back, and refuses later runs until it is resolved', async () => {
    const broken = '20990202000000_broken';
    addMigration(dir, broken, 'CREATE TABLE half_done (id int);\nSELECT 1 / 0;\n');
    await expect(migrate(db, { dir })).rejects.toThrow(new RegExp(`migration ${broken} failed: division by zero`));
    const failed = (await history(db)).find((r) => r.migration_name === broken)!;
    expect(failed).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(failed.logs).toMatch(/division by zero/);
    expect(await db.rawQuery(`SELECT to_regclass('half_done')::text AS t`)).toEqual([{ t: null }]);
    expect(await pendingMigrations(db, dir)).toEqual([broken]);

    writeFileSync(join(dir, broken, 'migration.sql'), 'CREATE TABLE half_done (id int);\n');
    await expect(migrate(db, { dir })).rejects.toThrow(new RegExp(`migration ${broken} failed earlier`));

    await db.rawQuery(`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1`, [broken]);
    expect(await migrate(db, { dir })).toEqual({ applied: [broken] });
  });

  it('recovers a migration recorded as started, without a finish or an error, by an earlier run killed while applying it', async () => {
    await migrate(db, { dir });
    const late = '20990404000000_late';
    addMigration(dir, late, 'CREATE TABLE late_table (id int);\n');
    await db.rawQuery(
      'INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, now(), $3)',
      [
        '00000000-0000-4000-8000-000000000001',
        createHash('sha256')
          .update(readFileSync(join(dir, late, 'migration.sql')))
          .digest('hex'),
        late,
      ],
    );
    const lines: string[] = [];
    expect(await migrate(db, { dir, log: (l) => lines.push(l) })).toEqual({ applied: [late] });
    expect(lines.join('\n')).toMatch(new RegExp(`migration ${late} was interrupted .*; applying it again`));
    const rows = (await history(db)).filter((r) => r.migration_name === late);
    expect(rows.map((r) => [r.finished_at === null, r.rolled_back_at === null])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(await pendingMigrations(db, dir)).toEqual([]);
  });

  it('recovers a migration an earlier version recorded as failed when it was only cancelled or timed out on a lock', async () => {
    await migrate(db, { dir });
    const waited = '20990606000000_waited';
    addMigration(dir, waited, 'CREATE TABLE waited_table (id int);\n');
    await db.rawQuery(
      'INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name, logs) VALUES ($1, $2, now(), $3, $4)',
      ['00000000-0000-4000-8000-000000000002', 'x'.repeat(64), waited, 'canceling statement due to lock timeout'],
    );
    expect(await migrate(db, { dir })).toEqual({ applied: [waited] });
    const rows = (await history(db)).filter((r) => r.migration_name === waited);
    expect(rows.map((r) => [r.finished_at === null, r.rolled_back_at === null])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('lists pending migrations, then none once applied', async () => {
    expect(await pendingMigrations(db, dir)).toEqual(ALL);
    await migrate(db, { dir });
    expect(await pendingMigrations(db, dir)).toEqual([]);
    addMigration(dir, '20990303000000_next', 'SELECT 1;');
    expect(await pendingMigrations(db, dir)).toEqual(['20990303000000_next']);
  });

  it('applies each migration once when two runs race', async () => {
    const other = await backend.another();
    const results = await Promise.all([migrate(db, { dir }), migrate(other, { dir })]);
    expect(results.flatMap((r) => r.applied).sort()).toEqual(ALL);
    expect((await history(db)).map((r) => r.migration_name)).toEqual(ALL);
  });

  it('uses prisma/migrations of the project by default', async () => {
    expect(await pendingMigrations(db)).toEqual(
      readdirSync(PROJECT_MIGRATIONS)
        .filter((n) => !n.endsWith('.toml'))
        .sort(),
    );
    await migrate(db);
    expect(await pendingMigrations(db)).toEqual([]);
  });
});

describe.runIf(TEST_DATABASE_URL)('a migration whose connection dies before it commits (PostgreSQL)', () => {
  it('leaves no record of it, and the next run applies it', async () => {
    const backend = await postgresBackend(TEST_DATABASE_URL!);
    const dir = scratchMigrations();
    try {
      const db = await backend.fresh();
      const slow = '20990505000000_slow';
      addMigration(
        dir,
        slow,
        "CREATE TABLE slow_table (id int);\nSELECT pg_sleep(30) FROM (SELECT 'migration-under-test') AS marker;\n",
      );
      const running = migrate(db, { dir });
      running.catch(() => undefined);
      const killer = await backend.another();
      const deadline = Date.now() + 10_000;
      let killed: unknown[] = [];
      while (!killed.length && Date.now() < deadline) {
        killed = await killer.rawQuery(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%migration-under-test%' AND pid <> pg_backend_pid()",
        );
        if (!killed.length) await new Promise((r) => setTimeout(r, 50));
      }
      expect(killed).toHaveLength(1);
      await expect(running).rejects.toThrow();
      expect((await history(killer)).filter((r) => r.migration_name === slow)).toEqual([]);
      writeFileSync(join(dir, slow, 'migration.sql'), 'CREATE TABLE slow_table (id int);\n');
      expect(await migrate(killer, { dir })).toEqual({ applied: [slow] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await backend.close();
    }
  }, 30_000);
});

describe.runIf(TEST_DATABASE_URL)('a migration stopped from outside before it commits (PostgreSQL)', () => {
  let backend: Backend;
  let dir: string;
  beforeEach(async () => {
    backend = await postgresBackend(TEST_DATABASE_URL!);
    dir = scratchMigrations();
    return async () => {
      rmSync(dir, { recursive: true, force: true });
      await backend.close();
    };
  });

  it('is recorded rolled back when its lock wait times out, and running again once the lock is free applies it', async () => {
    const db = await backend.fresh();
    await migrate(db, { dir });
    const waiting = '20990707000000_waits_for_lock';
    addMigration(dir, waiting, `SET LOCAL lock_timeout = '300ms';\nALTER TABLE "api_key" ADD COLUMN "late" TEXT;\n`);
    const holder = await (await backend.another()).pool!.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "api_key" IN ACCESS EXCLUSIVE MODE');
      await expect(migrate(db, { dir })).rejects.toThrow(
        new RegExp(`migration ${waiting} failed: canceling statement due to lock timeout \\(it did not commit`),
      );
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    const [stopped] = (await history(db)).filter((r) => r.migration_name === waiting);
    expect(stopped).toMatchObject({ finished_at: null, applied_steps_count: 0 });
    expect(stopped?.rolled_back_at).toBeInstanceOf(Date);
    expect(await pendingMigrations(db, dir)).toEqual([waiting]);
    expect(await migrate(db, { dir })).toEqual({ applied: [waiting] });
    expect(
      await db.rawQuery(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'api_key' AND column_name = 'late'`,
      ),
    ).toEqual([{ n: 1 }]);
  }, 30_000);

  it('is recorded rolled back when cancelled, and the next run applies it', async () => {
    const db = await backend.fresh();
    const slow = '20990808000000_cancelled';
    addMigration(
      dir,
      slow,
      "CREATE TABLE cancelled_table (id int);\nSELECT pg_sleep(30) FROM (SELECT 'migration-to-cancel') AS marker;\n",
    );
    const running = migrate(db, { dir });
    running.catch(() => undefined);
    const canceller = await backend.another();
    const deadline = Date.now() + 10_000;
    let cancelled: unknown[] = [];
    while (!cancelled.length && Date.now() < deadline) {
      cancelled = await canceller.rawQuery(
        "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%migration-to-cancel%' AND state = 'active' AND pid <> pg_backend_pid()",
      );
      if (!cancelled.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(cancelled).toHaveLength(1);
    await expect(running).rejects.toThrow(/canceling statement due to user request \(it did not commit/);
    expect(await canceller.rawQuery(`SELECT to_regclass('cancelled_table')::text AS t`)).toEqual([{ t: null }]);
    writeFileSync(join(dir, slow, 'migration.sql'), 'CREATE TABLE cancelled_table (id int);\n');
    expect(await migrate(canceller, { dir })).toEqual({ applied: [slow] });
  }, 30_000);
});
