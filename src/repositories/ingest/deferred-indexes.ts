/**
 * Index builds deferred around a bulk load into empty tables: one sorted build per index after
 * the load costs a fraction of maintaining it row by row (1.2 M prices on PGlite: about a third).
 * The definitions are read from the catalogue before dropping, so the migrations stay their only
 * source. Runs inside the caller's transaction: a rollback restores the indexes.
 */
import type { Sql } from '../sql/executor.js';

/** The indexes of some tables as they were before {@link dropIndexes}. */
export interface DroppedIndexes {
  readonly statements: readonly string[];
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
  const rows = await sql.query<IndexRow>(
    `SELECT t.relname AS table_name, x.relname AS index_name, pg_get_indexdef(i.indexrelid) AS index_def,
            c.conname AS constraint_name, pg_get_constraintdef(c.oid) AS constraint_def
     FROM pg_index i
     JOIN pg_class t ON t.oid = i.indrelid
     JOIN pg_class x ON x.oid = i.indexrelid
     LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u')
     WHERE i.indrelid = ANY($1::text[]::regclass[])
     ORDER BY c.conname IS NULL, x.relname`,
    [[...tables]],
  );
  const statements: string[] = [];
  for (const r of rows) {
    if (r.constraint_name && r.constraint_def) {
      await sql.query(`ALTER TABLE ${quote(r.table_name)} DROP CONSTRAINT ${quote(r.constraint_name)}`);
      statements.push(`ALTER TABLE ${quote(r.table_name)} ADD CONSTRAINT ${quote(r.constraint_name)} ${r.constraint_def}`);
    } else {
      await sql.query(`DROP INDEX ${quote(r.index_name)}`);
      statements.push(r.index_def);
    }
  }
  return { statements };
}

/** Rebuilds the indexes {@link dropIndexes} dropped. @throws when the loaded rows break a key. */
export async function restoreIndexes(sql: Sql, dropped: DroppedIndexes): Promise<void> {
  for (const statement of dropped.statements) await sql.query(statement);
}
