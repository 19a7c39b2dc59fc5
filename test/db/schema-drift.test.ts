import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseTarget,
  EMPTY_MIGRATION,
  type Engine,
  migrationsTarget,
  openEngine,
  pgliteTemplate,
  SCHEMA_PATH,
  schemaTarget,
} from '../../scripts/lib/schema-engine.js';
import { type Database, openPglite } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

/** Asks Prisma's schema engine (wasm build) whether prisma/migrations still produce schema.prisma. */
describe('schema drift between prisma/migrations and prisma/schema.prisma', () => {
  let db: Database;
  let engine: Engine;

  beforeAll(async () => {
    db = await openPglite('memory://', await pgliteTemplate());
    await migrate(db);
    engine = await openEngine({ pglite: db.pglite! });
  });
  afterAll(async () => {
    await engine?.close();
    await db?.close();
  });

  it('finds nothing to change between the migrated database and schema.prisma', async () => {
    const { sql, changed } = await engine.diff(databaseTarget(), schemaTarget());
    expect(sql.trim()).toBe(EMPTY_MIGRATION);
    expect(changed).toBe(false);
  });

  it('finds nothing to change when replaying the migrations folder on a shadow database', async () => {
    expect(await engine.diff(migrationsTarget(), schemaTarget())).toEqual({
      sql: `${EMPTY_MIGRATION}\n`,
      changed: false,
    });
  });

  it('reports a schema with an extra column as drift', async () => {
    const schema = readFileSync(SCHEMA_PATH, 'utf8');
    const extended = schema.replace(/(model ApiKey \{\n)/, '$1  extraNote String? @map("extra_note")\n');
    expect(extended).not.toBe(schema);
    const { sql, changed } = await engine.diff(databaseTarget(), schemaTarget(extended));
    expect(changed).toBe(true);
    expect(sql).toMatch(/ALTER TABLE "api_key" ADD COLUMN\s+"extra_note" TEXT/);
  });

  it('leaves a history that Prisma reads as applied and unmodified', async () => {
    expect(await engine.diagnose()).toEqual({
      editedMigrationNames: [],
      failedMigrationNames: [],
      hasMigrationsTable: true,
      history: null,
    });
  });
});
