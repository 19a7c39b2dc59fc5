/**
 * The service writes to the database DATABASE_URL (and DATABASE_DIRECT_URL) names: migrations, the
 * zone catalogue, ingestion, API keys, and the notifications that tell every instance's caches of
 * new data. On a read-only database (a hot standby, or `default_transaction_read_only` on) it would
 * serve what its caches hold while never learning of new data, and its ingest leader would fail
 * every cycle: so the server and the command-line tools refuse it at start instead. Replicas belong
 * in DATABASE_READ_URL, read beside a writable primary.
 */
import type { Database } from './client.js';
import type { UrlSetting } from './pooler.js';

/** Thrown when the database a writing setting names is read-only. */
export class ReadOnlyDatabaseError extends Error {
  override name = 'ReadOnlyDatabaseError';
  readonly code = 'DATABASE_READ_ONLY';
}

function readOnlyMessage(setting: Exclude<UrlSetting, 'DATABASE_READ_URL'>, standby: boolean): string {
  const why = standby ? 'a standby server in recovery' : 'transactions default to read-only there';
  return setting === 'DATABASE_URL'
    ? `DATABASE_URL leads to a read-only database (${why}): the service writes to it (migrations, ingestion, API keys, the notifications that keep caches fresh), ` +
        'so point DATABASE_URL at the primary server and list replicas in DATABASE_READ_URL'
    : `DATABASE_DIRECT_URL leads to a read-only database (${why}): it must name the primary server, replicas go in DATABASE_READ_URL`;
}

/**
 * `db`, once found writable; closed, and a {@link ReadOnlyDatabaseError} naming `setting` thrown,
 * when its transactions are read-only.
 */
export async function refuseReadOnly(
  db: Database,
  setting: Exclude<UrlSetting, 'DATABASE_READ_URL'>,
): Promise<Database> {
  let row: { readOnly: string; standby: boolean } | undefined;
  try {
    [row] = await db.rawQuery<{ readOnly: string; standby: boolean }>(
      `SELECT current_setting('transaction_read_only') AS "readOnly", pg_is_in_recovery() AS standby`,
    );
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  if (row?.readOnly !== 'on') return db;
  await db.close().catch(() => undefined);
  throw new ReadOnlyDatabaseError(readOnlyMessage(setting, row.standby));
}
