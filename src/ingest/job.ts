/**
 * The ENTSO-E ingestion job: plans request windows, skips what earlier runs finished, then for each
 * window fetches and parses outside any transaction and writes in ONE transaction the rows, the
 * recomputations they imply (price rollup, classification of the affected border-hours, flow
 * rollups) and the window's `done` record. A crash or an abort therefore loses nothing committed
 * and leaves no half-written window.
 */
import type { Database } from '../db/client.js';
import { type ClassificationThresholds, DEFAULT_THRESHOLDS } from '../domain/classification.js';
import type { StoredCatalogue } from '../domain/catalogue.js';
import { ensureCatalogue } from '../repositories/catalogue/catalogue.js';
import { notifyWindowCommitted, windowEvent } from '../repositories/ingest/events.js';
import type { DataEvent } from '../domain/data-events.js';
import { readFinishedWindows, recordWindow } from '../repositories/ingest/ledger.js';
import { closeAbandonedRuns, finishRun, startRun } from '../repositories/ingest/runs.js';
import { inTransaction } from '../db/executor.js';
import { type EntsoeClient, EntsoeTransportError } from './client.js';
import { EntsoeAuthError, EntsoeError, redactSecrets } from './entsoe/index.js';
import { type ItemContext, prepareWindow } from './items.js';
import type { Item } from '../domain/items.js';
import { planLines, type RequestPlan, requestPlan } from './plan.js';
import { type ProgressReporter, SILENT_PROGRESS } from './progress.js';
import { type PlannedWindow, type TargetSelection, planWindows, targetsFor, windowLabel } from './windows.js';

/** Inputs of one run. */
export interface IngestOptions extends TargetSelection {
  readonly db: Database;
  readonly client: EntsoeClient;
  /** Requested range [from, to), UTC. */
  readonly from: Date;
  readonly to: Date;
  readonly thresholds?: ClassificationThresholds;
  /** Aborting stops before the next window; an in-flight fetch is abandoned, a commit completes. */
  readonly signal?: AbortSignal;
  readonly progress?: ProgressReporter;
  readonly now?: () => Date;
  readonly catalogue?: StoredCatalogue;
  /** Recorded in `ingestion_run.args` (never put the token here). */
  readonly args?: unknown;
  /** Told each window's data event once its transaction committed (the cache purge); awaited before the next window. */
  readonly onCommitted?: (event: DataEvent) => Promise<void>;
}

/** Outcome of one run. */
export interface IngestSummary {
  readonly runId: number;
  /** Windows planned by this run (windows finished earlier are not counted). */
  readonly planned: number;
  /** Requests the run planned (see plan.ts); `requests` differs by retries and extra outage pages. */
  readonly plannedRequests: number;
  readonly completed: number;
  readonly rows: number;
  readonly failed: readonly { readonly window: string; readonly error: string }[];
  /** Windows whose data the upstream has not published yet (e.g. no day-ahead series): not done, fetched again by the next run. */
  readonly unpublished: readonly { readonly window: string; readonly reason: string }[];
  /** Stopped by the abort signal before every window was handled. */
  readonly interrupted: boolean;
  /** The error that stopped the run (authentication, upstream unreachable, database). */
  readonly fatal: Error | null;
  readonly requests: number;
  /** Ids of earlier runs found left `running` by a process that ended, now closed as abandoned. */
  readonly abandonedRuns: readonly number[];
}

function message(error: unknown): string {
  return redactSecrets(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, '; ');
}

/** Errors of one request (an acknowledgement, a malformed document): the run goes on with other windows. */
function isWindowError(error: unknown): boolean {
  return (
    error instanceof EntsoeError && !(error instanceof EntsoeAuthError) && !(error instanceof EntsoeTransportError)
  );
}

interface RunState {
  completed: number;
  rows: number;
  failed: { window: string; error: string }[];
  unpublished: { window: string; reason: string }[];
  interrupted: boolean;
  fatal: Error | null;
}

async function handleWindow(
  opts: IngestOptions,
  ctx: ItemContext,
  runId: number,
  w: PlannedWindow,
  state: RunState,
): Promise<boolean> {
  const now = opts.now ?? (() => new Date());
  const progress = opts.progress ?? SILENT_PROGRESS;
  const label = windowLabel(w);
  const before = opts.client.requestCount;
  const requests = () => opts.client.requestCount - before;
  progress.begin(label);
  try {
    const prepared = await prepareWindow(ctx, w, opts.signal);
    if (prepared.unpublished) {
      state.unpublished.push({ window: label, reason: prepared.unpublished });
      progress.note(`${label}: ${prepared.unpublished}; not done, fetched again by the next run`);
      progress.end(label, { rows: 0, requests: requests() });
      return true;
    }
    if (prepared.ignored) progress.note(`${label}: ${prepared.ignored}`);
    await inTransaction(opts.db, async (sql) => {
      await prepared.load(sql);
      await recordWindow(sql, runId, w, { status: 'done', rows: prepared.rows, error: null, at: now() });
      if (prepared.rows > 0) await notifyWindowCommitted(sql, w);
    });
    if (prepared.rows > 0) await opts.onCommitted?.(windowEvent(w));
    state.completed++;
    state.rows += prepared.rows;
    progress.end(label, { rows: prepared.rows, requests: requests() });
    return true;
  } catch (error) {
    if (opts.signal?.aborted) {
      state.interrupted = true;
      progress.note(`interrupted: ${label} abandoned, nothing of it was written`);
      return false;
    }
    const text = message(error);
    state.failed.push({ window: label, error: text });
    progress.end(label, { rows: 0, error: text, requests: requests() });
    await recordWindow(opts.db, runId, w, { status: 'failed', rows: 0, error: text, at: now() }).catch(() => undefined);
    if (isWindowError(error)) return true;
    state.fatal = error instanceof Error ? error : new Error(text);
    return false;
  }
}

/** The windows of a selection still to fetch over a range, and what the ledger says was done. */
export interface RunPlan {
  readonly windows: PlannedWindow[];
  /** Targets with nothing left to fetch. */
  readonly upToDate: number;
  /** Done windows of the range recorded by earlier runs (skipped). */
  readonly loaded: number;
}

/**
 * Plans the windows of a selection that are still to fetch; `db` null plans as if nothing was
 * loaded (a database without its schema yet).
 */
export async function planRun(
  db: Database | null,
  sel: TargetSelection,
  range: { from: Date; to: Date },
): Promise<RunPlan> {
  const targets = targetsFor(sel);
  const items = [...new Set(targets.map((t) => t.item))];
  const areas = [...new Set(targets.map((t) => t.areaKey))];
  const done = db ? await readFinishedWindows(db, items, areas, range) : [];
  const windows = planWindows(
    targets,
    range,
    done.map((d) => ({ ...d, item: d.item as Item })),
  );
  const pending = new Set(windows.map((w) => `${w.item}|${w.areaKey}`));
  const selected = new Set(targets.map((t) => `${t.item}|${t.areaKey}`));
  return {
    windows,
    upToDate: targets.filter((t) => !pending.has(`${t.item}|${t.areaKey}`)).length,
    loaded: done.filter((d) => selected.has(`${d.item}|${d.areaKey}`)).length,
  };
}

/** A run's plan with its request counts (see plan.ts) and its printed lines. */
export interface StatedPlan extends RunPlan {
  readonly requests: RequestPlan;
  readonly lines: string[];
}

/**
 * Plans a run and states it: windows, requests per data kind, the time they take at
 * `requestsPerMinute`, and what the ledger skips. Reads the ledger only; fetches nothing.
 */
export async function statePlan(
  db: Database | null,
  sel: TargetSelection,
  range: { from: Date; to: Date },
  requestsPerMinute: number,
): Promise<StatedPlan> {
  const run = await planRun(db, sel, range);
  const requests = requestPlan(run.windows, requestsPerMinute);
  return { ...run, requests, lines: planLines(requests, db ? run : { noSchema: true }) };
}

/**
 * Runs the job over [from, to) for the selection. Never throws for upstream or window failures:
 * they are recorded (ingestion_window/ingestion_run `failed`) and returned in the summary.
 * @throws only when the database cannot record the run at all.
 */
export async function runIngest(opts: IngestOptions): Promise<IngestSummary> {
  const now = opts.now ?? (() => new Date());
  const progress = opts.progress ?? SILENT_PROGRESS;
  if (opts.from >= opts.to) throw new Error('ingest range is empty: --from must be before --to');
  const catalogue = opts.catalogue ?? (await ensureCatalogue(opts.db));
  const plan = await statePlan(opts.db, opts, { from: opts.from, to: opts.to }, opts.client.requestsPerMinute);
  const lease = await startRun(opts.db, opts.args ?? {}, now());
  try {
    const abandonedRuns = await closeAbandonedRuns(opts.db, lease.id, now());
    if (abandonedRuns.length)
      progress.note(`run(s) ${abandonedRuns.join(', ')} left running by a process that ended: closed as abandoned`);
    const requestsBefore = opts.client.requestCount;
    const state = await runWindows(opts, lease.id, plan, catalogue);
    const error = runError(state);
    await finishRun(opts.db, lease.id, error ? 'failed' : 'done', error, now());
    return {
      runId: lease.id,
      planned: plan.windows.length,
      plannedRequests: plan.requests.requests,
      ...state,
      requests: opts.client.requestCount - requestsBefore,
      abandonedRuns,
    };
  } finally {
    await lease.release();
  }
}

async function runWindows(
  opts: IngestOptions,
  runId: number,
  plan: StatedPlan,
  catalogue: StoredCatalogue,
): Promise<RunState> {
  const progress = opts.progress ?? SILENT_PROGRESS;
  const ctx: ItemContext = { client: opts.client, catalogue, thresholds: opts.thresholds ?? DEFAULT_THRESHOLDS };
  const state: RunState = { completed: 0, rows: 0, failed: [], unpublished: [], interrupted: false, fatal: null };
  progress.start(plan.windows.length, plan.upToDate, {
    lines: plan.lines,
    requests: plan.requests.requests,
    requestsPerMinute: plan.requests.requestsPerMinute,
  });
  for (const w of plan.windows) {
    if (opts.signal?.aborted) {
      state.interrupted = true;
      break;
    }
    if (!(await handleWindow(opts, ctx, runId, w, state))) break;
  }
  progress.finish();
  return state;
}

function runError(state: RunState): string | null {
  if (state.fatal) return message(state.fatal);
  if (state.interrupted) return 'interrupted';
  const first = state.failed[0];
  return first ? `${state.failed.length} window(s) failed; first: ${first.window}: ${first.error}` : null;
}
