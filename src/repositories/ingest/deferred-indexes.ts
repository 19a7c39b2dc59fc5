/**
 * Index builds deferred around a bulk load into empty tables: one sorted build per index after
 * the load costs a fraction of maintaining it row by row (1.2 M prices on PGlite: about a third).
 * The definitions are read from the catalogue before dropping, so the migrations stay their only
 * source. Runs inside the caller's transaction: a rollback restores the indexes.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { run, type Sql } from '../../db/executor.js';

/** The indexes of some tables as they were before {@link dropIndexes}. */
export interface DroppedIndexes {
  /** The DDL rebuilding them, from the catalogue's own definitions. */
  readonly statements: readonly Prisma.Sql[];
}

interface IndexRow {
  readonly table_name: string;
  readonly index_name: string;
  readonly index_def: string;
  readonly constraint_name: string | null;
  readonly constraint_def: string | null;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Drops every index of `tables` (primary keys and unique constraints included; none may be
 * referenced by a foreign key) and returns the statements that rebuild them.
 */
export async function dropIndexes(sql: Sql, tables: readonly string[]): Promise<DroppedIndexes> {
  if (tables.length === 0) return { statements: [] };
  const rows = await run<IndexRow>(
    sql,
    'readIndexDefinitions',
    Prisma.sql`
    SELECT t.relname AS table_name, x.relname AS index_name, pg_get_indexdef(i.indexrelid) AS index_def,
            c.conname AS constraint_name, pg_get_constraintdef(c.oid) AS constraint_def
     FROM pg_index i
     JOIN pg_class t ON t.oid = i.indrelid
     JOIN pg_class x ON x.oid = i.indexrelid
     LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u')
     WHERE i.indrelid = ANY(${[...tables]}::text[]::regclass[])
     ORDER BY c.conname IS NULL, x.relname`,
  );
  const statements: Prisma.Sql[] = [];
  for (const r of rows) {
    if (r.constraint_name && r.constraint_def) {
      const [table, constraint] = [Prisma.raw(quote(r.table_name)), Prisma.raw(quote(r.constraint_name))];
      await run(sql, 'dropConstraint', Prisma.sql`ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`);
      statements.push(Prisma.sql`ALTER TABLE ${table} ADD CONSTRAINT ${constraint} ${Prisma.raw(r.constraint_def)}`);
    } else {
      await run(sql, 'dropIndex', Prisma.sql`DROP INDEX ${Prisma.raw(quote(r.index_name))}`);
      statements.push(Prisma.raw(r.index_def));
    }
  }
  return { statements };
}

/** Rebuilds the indexes {@link dropIndexes} dropped. @throws when the loaded rows break a key. */
export async function restoreIndexes(sql: Sql, dropped: DroppedIndexes): Promise<void> {
  for (const statement of dropped.statements) await run(sql, 'restoreIndex', statement);
}
