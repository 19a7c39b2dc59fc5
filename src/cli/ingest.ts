/**
 * `npm run ingest -- --from <date> --to <date> [--zones ES,FR] [--borders ES->FR] [--what prices,flows] [--plan]`
 * `npm run ingest -- --follow [--from <date>] [--interval 15]`
 *
 * A run first states its plan (windows and upstream requests per data kind, and their time at
 * ENTSOE_REQUESTS_PER_MINUTE), then reports each window against it; `--plan` prints the plan only.
 * Fills the configured database (PostgreSQL with DATABASE_URL, else PGlite in PGLITE_DIR) from the
 * ENTSO-E Transparency Platform (token: ENTSOE_SECURITY_TOKEN; endpoint: ENTSOE_API_URL).
 * Exit codes: 0 done, 1 failed (the summary names the failed windows), 2 usage or configuration
 * error, 130 interrupted (Ctrl-C: the current window is abandoned or, if committing, completed).
 */
import { DAY_MS } from '../domain/calendar.js';
import { pathToFileURL } from 'node:url';
import { classificationThresholds, type Config, ConfigError, DEFAULT_LOOKBACK_DAYS, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { DATA_CATALOGUE } from '../domain/catalogue.js';
import { parseDateTime } from '../domain/time.js';
import { ensureCatalogue } from '../repositories/catalogue/catalogue.js';
import { EntsoeClient, entsoeClientOptions } from '../ingest/client.js';
import { follow } from '../ingest/follow.js';
import { type IngestSummary, runIngest, statePlan } from '../ingest/job.js';
import { cachePurger } from '../events/cache-purge.js';
import { createProgress } from '../ingest/progress.js';
import { vacuumAfterRun } from '../ingest/vacuum.js';
import { ITEMS, type Item } from '../domain/items.js';
import { ledgerExists } from '../repositories/ingest/ledger.js';
import { oneLine, type parseCommandLine, runCommandLine, UsageError } from './command-line.js';

/** Thrown for a missing or bad setting: exit code 2. */
class SettingError extends ConfigError {}

const CLI = {
  script: 'ingest',
  usage: `usage: npm run ingest -- --from <date> [--to <date>] [--zones ES,FR] [--borders ES->FR] [--what ${ITEMS.join(',')}] [--plan]
       npm run ingest -- --follow [--from <date>] [--interval <minutes>] [--lookback-days <n>]
dates: ISO 8601 (no offset = UTC, a bare date = 00:00 UTC) or now[-<n><unit>]
Fills the configured database (PostgreSQL with DATABASE_URL, else the embedded one in PGLITE_DIR)
from the ENTSO-E Transparency Platform; the token comes from ENTSOE_SECURITY_TOKEN.
A run states its plan first (requests per data kind, time at ENTSOE_REQUESTS_PER_MINUTE) and skips
the windows earlier runs loaded (an interrupted run resumes); --plan prints the plan and fetches nothing.
Exit codes: 0 done, 1 failed, 2 usage or configuration error, 130 interrupted.`,
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    zones: { type: 'string', multiple: true },
    borders: { type: 'string', multiple: true },
    what: { type: 'string', multiple: true },
    follow: { type: 'boolean', default: false },
    plan: { type: 'boolean', default: false },
    interval: { type: 'string' },
    'lookback-days': { type: 'string', default: String(DEFAULT_LOOKBACK_DAYS) },
  },
} as const;

type Values = ReturnType<typeof parseCommandLine<typeof CLI.options>>['values'];

interface Invocation {
  from: Date | null;
  to: Date;
  zones: string[];
  borders: string[];
  what: Item[];
  follow: boolean;
  planOnly: boolean;
  intervalMinutes: number | null;
  lookbackDays: number;
}

const list = (values: readonly string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

function date(text: string | undefined, name: string, now: Date): Date | null {
  if (text === undefined) return null;
  const d = parseDateTime(text, now);
  if (!d.ok) throw new UsageError(`--${name}: cannot read '${text}' as a date (${d.msg})`);
  return d.instant;
}

function positive(text: string | undefined, name: string): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name}: expected a non-negative number, got '${text}'`);
  return n;
}

function parseInvocation(values: Values, now: Date): Invocation {
  const what = list(values.what);
  const unknown = what.filter((w) => !(ITEMS as readonly string[]).includes(w));
  if (unknown.length)
    throw new UsageError(`--what: unknown item(s) ${unknown.join(', ')}; expected ${ITEMS.join(', ')}`);
  const from = date(values.from, 'from', now);
  if (!from && !values.follow) throw new UsageError('--from is required (or use --follow)');
  const to = date(values.to, 'to', now) ?? now;
  if (from && !values.follow && from >= to) throw new UsageError('--from must be before --to');
  if (values.plan && values.follow) throw new UsageError('--plan plans a range: use it with --from, not --follow');
  try {
    return {
      from,
      to,
      zones: DATA_CATALOGUE.resolveZones(list(values.zones), 'zones'),
      borders: DATA_CATALOGUE.resolveBorders(list(values.borders), 'borders').map((b) => b.key),
      what: what.length ? (what as Item[]) : [...ITEMS],
      follow: values.follow ?? false,
      planOnly: values.plan ?? false,
      intervalMinutes: positive(values.interval, 'interval'),
      lookbackDays: positive(values['lookback-days'], 'lookback-days') ?? DEFAULT_LOOKBACK_DAYS,
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${(error as Error).message.replace(/\s*\n\s*/g, '; ')}`);
  }
}

function summaryLine(s: IngestSummary, seconds: number): string {
  const base = `ingest: ${s.completed}/${s.planned} window(s), ${s.rows} row(s), ${s.requests} request(s) in ${seconds.toFixed(1)} s${s.unpublished.length ? `, ${s.unpublished.length} not published upstream yet (fetched again by the next run)` : ''}`;
  if (s.fatal) return `${base}; stopped: ${s.fatal.message}`;
  if (s.interrupted) return `${base}; interrupted (re-run to resume)`;
  if (s.failed.length)
    return `${base}; ${s.failed.length} failed:\n${s.failed.map((f) => `  ${f.window}: ${f.error}`).join('\n')}`;
  return base;
}

/** Injection points for tests. */
export interface MainDeps {
  readonly config?: Config;
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly signal?: AbortSignal;
}

/** Runs the command; @returns the exit code. */
export function main(argv: readonly string[], deps: MainDeps = {}): Promise<number> {
  return runCommandLine(
    CLI,
    argv,
    ({ values }) => {
      const inv = parseInvocation(values, new Date());
      const config = deps.config ?? loadConfig();
      if (inv.planOnly) return printPlan(inv, config, deps);
      const token = config.ENTSOE_SECURITY_TOKEN;
      if (!token)
        throw new SettingError(
          'ENTSOE_SECURITY_TOKEN is not set: put your Transparency Platform token in the environment',
        );
      return ingest(inv, { ...config, ENTSOE_SECURITY_TOKEN: token }, deps);
    },
    deps,
  );
}

/** `--plan`: states the plan of the range against the ledger (read only) and fetches nothing. */
async function printPlan(inv: Invocation, config: Config, deps: MainDeps): Promise<number> {
  const stdout = deps.stdout ?? process.stdout;
  const db = await openDatabase(config);
  try {
    const ledger = (await ledgerExists(db)) ? db : null;
    const stated = await statePlan(ledger, inv, { from: inv.from!, to: inv.to }, config.ENTSOE_REQUESTS_PER_MINUTE);
    stdout.write(`${stated.lines.join('\n')}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

async function ingest(
  inv: Invocation,
  config: Config & { ENTSOE_SECURITY_TOKEN: string },
  deps: MainDeps,
): Promise<number> {
  const stdout = deps.stdout ?? process.stdout;
  const stderr = deps.stderr ?? process.stderr;
  const progress = createProgress({ stream: stderr });
  const client = new EntsoeClient(
    entsoeClientOptions(config, config.ENTSOE_SECURITY_TOKEN, (e) =>
      progress.note(`retry ${e.attempt}: ${e.request}: ${e.reason}; waiting ${(e.delayMs / 1000).toFixed(1)} s`),
    ),
  );
  const signal = deps.signal ?? interruptSignal(stderr);
  const purge = cachePurger(config.CACHE_PURGE_URL, (line) => progress.note(line));
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const catalogue = await ensureCatalogue(db);
    const p = inv;
    const once = async (range: { from: Date; to: Date }) => {
      const started = Date.now();
      const args = {
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        zones: p.zones,
        borders: p.borders,
        what: p.what,
        follow: p.follow,
      };
      const summary = await runIngest({
        db,
        client,
        catalogue,
        signal,
        progress,
        thresholds: classificationThresholds(config),
        ...range,
        zones: p.zones,
        borders: p.borders,
        what: p.what,
        args,
        ...(purge ? { onCommitted: purge } : {}),
      });
      stdout.write(`${summaryLine(summary, (Date.now() - started) / 1000)}\n`);
      await vacuumAfterRun(db, summary, p.what, (line) => stdout.write(`${line}\n`));
      return summary;
    };
    if (!p.follow) return exitCode(await once({ from: p.from!, to: p.to }), signal);
    if (p.from) await once({ from: p.from, to: new Date(Date.now() + 2 * DAY_MS) });
    const minutes = p.intervalMinutes ?? config.INGEST_FOLLOW_INTERVAL_MINUTES;
    await follow({
      runOnce: once,
      intervalMs: minutes * 60_000,
      lookbackDays: p.lookbackDays,
      signal,
      log: (l) => stderr.write(`${l}\n`),
    });
    return signal.aborted ? 130 : 0;
  } catch (error) {
    stderr.write(`ingest failed: ${oneLine((error as Error).message)}\n`);
    return 1;
  } finally {
    await db.close();
  }
}

function exitCode(s: IngestSummary, signal: AbortSignal): number {
  if (s.interrupted || signal.aborted) return 130;
  return s.fatal || s.failed.length ? 1 : 0;
}

/** First Ctrl-C (or SIGTERM) aborts gracefully; a second one exits at once. */
function interruptSignal(stderr: NodeJS.WritableStream): AbortSignal {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    stderr.write('\nStopping: the current window is abandoned or finishes committing (Ctrl-C again to quit now)\n');
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
