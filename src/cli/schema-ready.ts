import type { Database } from '../db/client.js';
import { pendingMigrations } from '../db/migrate.js';

/**
 * Refuses a database whose schema is missing or behind the migrations folder, in one line that
 * says what to run. @throws Error
 */
export async function assertSchemaReady(db: Database): Promise<void> {
  const [history] = await db.rawQuery<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!history?.t)
    throw new Error('The database has no schema yet: run `npm run db:migrate` (or start the server once)');
  const pending = await pendingMigrations(db);
  if (pending.length)
    throw new Error(`The database has pending migrations (${pending.join(', ')}): run \`npm run db:migrate\``);
}
