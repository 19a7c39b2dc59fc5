import { classificationThresholds, type Config } from './config.js';
import { type Database, directOf } from './db/client.js';
import { migrate, pendingMigrations } from './db/migrate.js';
import { appendDemoDays } from './demo/append.js';
import { type GeneratedDemo, type LoadStep, seedDemo } from './demo/seed.js';
import { demoSteps } from './demo/generate.js';
import { DEMO_VALID_FROM_MS } from './demo/profiles.js';
import { drainYielding } from './demo/steps.js';
import { createProgress, type ProgressReporter } from './ingest/progress.js';
import type { Logger } from './logger.js';
import { ensureCatalogue } from './repositories/catalogue/catalogue.js';

/**
 * Readies the database for serving: migrations (always on the embedded database, on PostgreSQL
 * when MIGRATE_ON_START), the zone catalogue, and the demo data set into an empty database when
 * SEED_DEMO (DEMO_HISTORY_DAYS days back from `now` when set) or the days it misses up to the end
 * of tomorrow of `now` appended to it (src/demo/append.ts), its flows classified with the
 * CLASSIFY_* thresholds of `config`. The demo load is all or nothing: an interrupted one is
 * replaced at the next start. Its progress goes to stderr (a bar on a terminal) unless logging is
 * quieter than `info`. `status` is told what is being done, the demo load month by month
 * (`loading demo data: 2025-11 (3/15 months)`). Past a pooler all of it runs on the direct
 * connection (see `Database.direct`).
 * @throws Error when PostgreSQL has pending migrations and may not migrate them.
 */
export async function prepareDatabase(
  served: Database,
  config: Config,
  logger: Logger,
  now: Date,
  status: (detail: string) => void = () => {},
  generated?: GeneratedDemo,
): Promise<void> {
  const db = directOf(served);
  status('applying database migrations');
  if (db.kind === 'pglite' || config.MIGRATE_ON_START) {
    const { applied } = await migrate(db, { log: (msg) => logger.info(msg) });
    if (applied.length) logger.info({ applied }, 'migrations applied');
  } else {
    const pending = await pendingMigrations(db);
    if (pending.length) {
      throw new Error(
        `The database has pending migrations (${pending.join(', ')}): run \`npm run db:migrate\` or set MIGRATE_ON_START=true`,
      );
    }
  }
  status('loading the zone catalogue');
  await ensureCatalogue(db);
  if (config.SEED_DEMO) await seedDemoOnStart(db, config, logger, now, status, generated);
}

/**
 * Where the demo data set starts: DEMO_HISTORY_DAYS before `now`, but not before every demo zone and
 * border exists ({@link DEMO_VALID_FROM_MS}); the generator's default (430 days back) when unset.
 */
export function demoFrom(config: Pick<Config, 'DEMO_HISTORY_DAYS'>, now: Date): Date | undefined {
  return config.DEMO_HISTORY_DAYS === undefined
    ? undefined
    : new Date(Math.max(now.getTime() - config.DEMO_HISTORY_DAYS * 86_400_000, DEMO_VALID_FROM_MS));
}

/**
 * Generates the demo data set {@link prepareDatabase} loads for the clock `now`, ahead of it: a
 * first start runs it while the engine initialises its new data directory on its own thread, in
 * steps that let the server answer requests (`/healthz`, the 503s) in between.
 */
export async function generateStartDemo(config: Config, now: Date): Promise<GeneratedDemo> {
  const started = performance.now();
  const data = await drainYielding(
    demoSteps({ now, from: demoFrom(config, now), thresholds: classificationThresholds(config) }),
  );
  return { data, ms: Math.round(performance.now() - started) };
}

/** The demo load of a start: DEMO_HISTORY_DAYS back from `now` when set, progress on stderr. */
async function seedDemoOnStart(
  db: Database,
  config: Config,
  logger: Logger,
  now: Date,
  status: (detail: string) => void,
  generated: GeneratedDemo | undefined,
): Promise<void> {
  status('checking the demo data (generating it on a first start)');
  const started = Date.now();
  const from = demoFrom(config, now);
  const progress = logger.isLevelEnabled('info')
    ? createProgress({
        stream: process.stderr,
        startLine: (months) => `demo data: loading ${months} month(s), first start only`,
      })
    : undefined;
  const log = (msg: string) => logger.info(msg);
  const result = await seedDemo(db, {
    now,
    from,
    thresholds: classificationThresholds(config),
    log,
    progress: statusProgress(status, progress),
    generated,
    step: loadSteps(status, progress ? (line) => process.stderr.write(`${line}\n`) : undefined),
  });
  if (result) logger.info({ ...result, seconds: (Date.now() - started) / 1000 }, 'demo data loaded');
  status('appending the demo days missing up to tomorrow');
  const appended = await appendDemoDays(db, { now, thresholds: classificationThresholds(config), log });
  if (appended) logger.info({ ...appended, seconds: (Date.now() - started) / 1000 }, 'demo data appended');
}

/**
 * A progress reporter that tells `status` which month of the demo load is running
 * (`loading demo data: 2025-11 (3/15 months)`, then indexes, rollups, commit and statistics) and forwards
 * everything to `inner`.
 */
export function statusProgress(status: (detail: string) => void, inner?: ProgressReporter): ProgressReporter {
  let total = 0;
  let done = 0;
  return {
    start(n, upToDate) {
      total = n;
      done = 0;
      status(`loading demo data: ${total} month(s) to load`);
      inner?.start(n, upToDate);
    },
    begin(label) {
      const month = /\d{4}-\d\d/.exec(label)?.[0] ?? label;
      status(`loading demo data: ${month} (${done + 1}/${total} months)`);
      inner?.begin(label);
    },
    end(label, outcome) {
      done++;
      inner?.end(label, outcome);
    },
    note: (line) => inner?.note(line),
    finish() {
      status('loading demo data: every month loaded');
      inner?.finish();
    },
  };
}

/**
 * Tells `status` each step after the demo load's months as it begins (`loading demo data: building
 * indexes`) and writes one line per finished step with its time to `print` (the terminal):
 * `demo data: building indexes done in 2.4 s`.
 */
export function loadSteps(
  status: (detail: string) => void,
  print?: (line: string) => void,
): (step: LoadStep, ms: number | null) => void {
  return (step, ms) => {
    if (ms === null) status(`loading demo data: ${step}`);
    else print?.(`demo data: ${step} done in ${(ms / 1000).toFixed(1)} s`);
  };
}
