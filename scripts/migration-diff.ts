/**
 * Migration authoring without Prisma's native engine (offline replacement for `prisma migrate dev
 * --create-only`): prints the SQL that takes the database from prisma/migrations to
 * prisma/schema.prisma, or writes it as a new migration folder.
 *
 *   tsx scripts/migration-diff.ts                      print the pending SQL
 *   tsx scripts/migration-diff.ts --write add_index    write prisma/migrations/<UTC timestamp>_add_index/
 *   tsx scripts/migration-diff.ts --write seed --allow-empty   write an empty migration to fill by hand
 *
 * The diff runs in the WebAssembly schema engine against in-memory PGlite databases.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { MIGRATION_LOCK, MIGRATIONS_DIR, migrationsTarget, openEngine, schemaTarget } from './lib/schema-engine.js';

/** `20250131235959` for the current UTC time, as Prisma names migration folders. */
function timestamp(now = new Date()): string {
  return now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** Lower-case snake case, like the names `prisma migrate dev` produces. */
function slug(name: string): string {
  const s = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!s) throw new Error(`invalid migration name "${name}"`);
  return s.slice(0, 200);
}

function writeMigration(name: string, sql: string): string {
  mkdirSync(MIGRATIONS_DIR, { recursive: true });
  const lock = join(MIGRATIONS_DIR, 'migration_lock.toml');
  if (!existsSync(lock)) writeFileSync(lock, MIGRATION_LOCK);
  const dir = join(MIGRATIONS_DIR, `${timestamp()}_${slug(name)}`);
  if (existsSync(dir)) throw new Error(`${dir} already exists`);
  mkdirSync(dir);
  const file = join(dir, 'migration.sql');
  writeFileSync(file, sql);
  return file;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { write: { type: 'string' }, 'allow-empty': { type: 'boolean' } } });
  const engine = await openEngine();
  try {
    const { sql, changed } = await engine.diff(migrationsTarget(), schemaTarget());
    if (values.write === undefined) {
      process.stdout.write(sql);
      return;
    }
    if (!changed && !values['allow-empty']) {
      console.error('No difference between prisma/migrations and prisma/schema.prisma: nothing written.');
      return;
    }
    const file = writeMigration(values.write, sql);
    const check = await engine.diff(migrationsTarget(), schemaTarget());
    if (check.changed) throw new Error(`${file} does not reach schema.prisma; remaining diff:\n${check.sql}`);
    console.error(`Wrote ${relative(process.cwd(), file)} (replayed on PGlite: no remaining drift).`);
  } finally {
    await engine.close();
  }
}

main().catch((error: unknown) => {
  console.error(`migration-diff: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
