import { classificationThresholds, type Config } from './config.js';
import type { Database } from './db/client.js';
import { migrate, pendingMigrations } from './db/migrate.js';
import { seedDemo } from './demo/seed.js';
import { createProgress } from './ingest/progress.js';
import type { Logger } from './logger.js';
import { ensureCatalogue } from './repositories/catalogue.js';

/**
 * Readies the database for serving: migrations (always on the embedded database, on PostgreSQL
 * when MIGRATE_ON_START), the zone catalogue, and the demo data set into an empty database when
 * SEED_DEMO (DEMO_HISTORY_DAYS days back from `now` when set), its flows classified with the
 * CLASSIFY_* thresholds of `config`. The demo load is all or nothing: an interrupted one is
 * replaced at the next start. Its progress goes to stderr (a bar on a terminal) unless logging is
 * quieter than `info`.
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
  if (config.SEED_DEMO) await seedDemoOnStart(db, config, logger, now);
}

/** The demo load of a start: DEMO_HISTORY_DAYS back from `now` when set, progress on stderr. */
async function seedDemoOnStart(db: Database, config: Config, logger: Logger, now: Date): Promise<void> {
  const started = Date.now();
  const from = config.DEMO_HISTORY_DAYS === undefined ? undefined : new Date(now.getTime() - config.DEMO_HISTORY_DAYS * 86_400_000);
  const progress = logger.isLevelEnabled('info')
    ? createProgress({ stream: process.stderr, startLine: (months) => `demo data: loading ${months} month(s), first start only` })
    : undefined;
  const log = (msg: string) => logger.info(msg);
  const result = await seedDemo(db, { now, from, thresholds: classificationThresholds(config), log, progress });
  if (result) logger.info({ ...result, seconds: (Date.now() - started) / 1000 }, 'demo data loaded');
}
