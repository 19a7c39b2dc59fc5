import { classificationThresholds, type Config } from './config.js';
import type { Database } from './db/client.js';
import { migrate, pendingMigrations } from './db/migrate.js';
import { seedDemo } from './demo/seed.js';
import type { Logger } from './logger.js';
import { ensureCatalogue } from './repositories/catalogue.js';

/**
 * Readies the database for serving: migrations (always on the embedded database, on PostgreSQL
 * when MIGRATE_ON_START), the zone catalogue, and the demo data set into an empty database when
 * SEED_DEMO, its flows classified with the CLASSIFY_* thresholds of `config`.
 * @throws Error when PostgreSQL has pending migrations and may not migrate them.
 */
export async function prepareDatabase(db: Database, config: Config, logger: Logger, now: Date): Promise<void> {
  if (db.kind === 'pglite' || config.MIGRATE_ON_START) {
    const { applied } = await migrate(db, { log: (msg) => logger.info(msg) });
    if (applied.length) logger.info({ applied }, 'migrations applied');
  } else {
    const pending = await pendingMigrations(db);
    if (pending.length) {
      throw new Error(`The database has pending migrations (${pending.join(', ')}): run \`npm run db:migrate\` or set MIGRATE_ON_START=true`);
    }
  }
  await ensureCatalogue(db);
  if (config.SEED_DEMO) {
    const started = Date.now();
    const result = await seedDemo(db, { now, thresholds: classificationThresholds(config), log: (msg: string) => logger.info(msg) });
    if (result) logger.info({ ...result, seconds: (Date.now() - started) / 1000 }, 'demo data loaded');
  }
}
