/**
 * The bulk write path shared by the loaders: binary COPY straight into the table when the
 * target window holds no rows yet, else COPY into a temporary staging table followed by one
 * `INSERT ... SELECT ... ON CONFLICT DO UPDATE` (upsert: reloading a window replaces its rows).
 */
import { type CopyType, type CopyValue, copyBinary } from '../sql/copy-binary.js';
import { Prisma } from '../../generated/prisma/client.js';
import { run, type Sql } from '../../db/executor.js';

/** Rows per COPY statement (bounds the size of one payload). */
export const COPY_CHUNK_ROWS = 200_000;

/** How to write one batch. */
export interface BulkSpec<R> {
  readonly table: string;
  /** Columns written with their COPY types, in the order `encode` returns their values. */
  readonly columns: readonly (readonly [string, CopyType])[];
  /** Primary-key columns (the conflict target). */
  readonly key: readonly string[];
  readonly encode: (row: R) => readonly CopyValue[];
  /** true when no stored row can conflict (then COPY goes straight into the table). */
  readonly targetEmpty: boolean;
  /** The foreign key of the batch, checked once per batch (see checkReferences). */
  readonly references: ForeignIds;
}

let stageCounter = 0;

async function copyChunks<R>(sql: Sql, table: string, spec: BulkSpec<R>, rows: readonly R[]): Promise<void> {
  const names = spec.columns.map(([name]) => name);
  const types = spec.columns.map(([, type]) => type);
  for (let at = 0; at < rows.length; at += COPY_CHUNK_ROWS) {
    await sql.copyIn(table, names, copyBinary(rows.slice(at, at + COPY_CHUNK_ROWS), types, spec.encode));
  }
}

/** The distinct values of a batch's foreign-key column and the table they reference (by `id`). */
export interface ForeignIds {
  readonly table: string;
  readonly ids: readonly number[];
}

/**
 * Checks the batch's foreign keys with one statement, taking the lock the row-level check would
 * (FOR KEY SHARE). When the role may (superuser: always on PGlite, usually not on production
 * PostgreSQL), row-level FK triggers are then switched off for the write (session_replication_role
 * = replica): the per-row checks cost more than the rows (1.2 M prices: PGlite 19 s -> 8 s,
 * PostgreSQL 9.5 s -> 5.4 s). @returns whether triggers were switched off.
 */
async function checkReferences(sql: Sql, ref: ForeignIds): Promise<boolean> {
  const found = await run<{ id: number }>(
    sql,
    'lockReferencedRows',
    Prisma.sql`
    SELECT id FROM ${Prisma.raw(ref.table)} WHERE id = ANY(${[...ref.ids]}::int[]) FOR KEY SHARE`,
  );
  if (found.length !== ref.ids.length) {
    const known = new Set(found.map((r) => r.id));
    const missing = ref.ids.filter((id) => !known.has(id));
    throw new Error(`bulk load references unknown ${ref.table} ids: ${missing.join(', ')}`);
  }
  const su = await run<{ su: boolean }>(
    sql,
    'isSuperuser',
    Prisma.sql`SELECT current_setting('is_superuser') = 'on' AS su`,
  );
  if (su[0]?.su !== true) return false;
  await run(sql, 'skipRowTriggers', Prisma.sql`SET LOCAL session_replication_role = replica`);
  return true;
}

/**
 * Writes `rows` with upsert semantics inside the caller's transaction. Keys must be unique within
 * the batch. Columns not listed keep their stored values on conflict and their defaults on insert.
 */
export async function bulkUpsert<R>(sql: Sql, spec: BulkSpec<R>, rows: readonly R[]): Promise<void> {
  if (rows.length === 0) return;
  const triggersOff = await checkReferences(sql, spec.references);
  await writeRows(sql, spec, rows);
  if (triggersOff) await run(sql, 'restoreRowTriggers', Prisma.sql`SET LOCAL session_replication_role = origin`);
}

/**
 * Appends binary COPY payloads (see `CopyWriter`) of `spec`'s columns, in its order, to its table
 * inside the caller's transaction, straight into the table: for a target holding none of their
 * keys. Their foreign keys are checked once, as {@link bulkUpsert} does.
 */
export async function appendCopyPayloads(
  sql: Sql,
  spec: Pick<BulkSpec<unknown>, 'table' | 'columns' | 'references'>,
  payloads: readonly Uint8Array<ArrayBuffer>[],
): Promise<void> {
  if (payloads.length === 0) return;
  const triggersOff = await checkReferences(sql, spec.references);
  const columns = spec.columns.map(([name]) => name);
  for (const payload of payloads) await sql.copyIn(spec.table, columns, payload);
  if (triggersOff) await run(sql, 'restoreRowTriggers', Prisma.sql`SET LOCAL session_replication_role = origin`);
}

async function writeRows<R>(sql: Sql, spec: BulkSpec<R>, rows: readonly R[]): Promise<void> {
  if (spec.targetEmpty) {
    await copyChunks(sql, spec.table, spec, rows);
    return;
  }
  const stage = `_stage_${spec.table}_${++stageCounter}`;
  const names = spec.columns.map(([name]) => name);
  const cols = names.join(', ');
  await run(
    sql,
    'createStagingTable',
    Prisma.sql`
    CREATE TEMP TABLE ${Prisma.raw(stage)} ON COMMIT DROP AS SELECT ${Prisma.raw(cols)} FROM ${Prisma.raw(spec.table)} WITH NO DATA`,
  );
  await copyChunks(sql, stage, spec, rows);
  const updates = names.filter((c) => !spec.key.includes(c)).map((c) => `${c} = excluded.${c}`);
  const action = updates.length ? `DO UPDATE SET ${updates.join(', ')}` : 'DO NOTHING';
  await run(
    sql,
    'upsertFromStagingTable',
    Prisma.raw(
      `INSERT INTO ${spec.table} (${cols}) SELECT ${cols} FROM ${stage} ON CONFLICT (${spec.key.join(', ')}) ${action}`,
    ),
  );
  await run(sql, 'dropStagingTable', Prisma.sql`DROP TABLE ${Prisma.raw(stage)}`);
}

/** Smallest and largest instant of a batch, epoch ms UTC (null when empty). */
export function timeBounds<R>(rows: readonly R[], ts: (row: R) => Date): { min: number; max: number } | null {
  if (rows.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const row of rows) {
    const t = ts(row).getTime();
    if (t < min) min = t;
    if (t > max) max = t;
  }
  return { min, max };
}

/** Distinct values of a numeric key in a batch. */
export function distinctIds<R>(rows: readonly R[], id: (row: R) => number): number[] {
  const seen = new Set<number>();
  for (const row of rows) seen.add(id(row));
  return [...seen].sort((a, b) => a - b);
}
