/**
 * Progress of an ingestion run: a one-line bar with ETA redrawn on a terminal, plain log lines
 * otherwise (CI, files, pipes). Writes to stderr only; stdout stays free for the final summary.
 */

/** The request plan an ingestion run states before fetching (built by plan.ts). */
export interface PlanStatement {
  /** The plan as printed. */
  readonly lines: readonly string[];
  /** Requests planned: the progress counts against them. */
  readonly requests: number;
  /** The client's pace: the ETA is never below the remaining requests at this rate. */
  readonly requestsPerMinute: number;
}

/** What a finished window reports. */
export interface WindowOutcome {
  readonly rows: number;
  readonly error?: string;
  /** Upstream requests the window made (retries included); ingestion runs only. */
  readonly requests?: number;
}

/** What the job reports. */
export interface ProgressReporter {
  /**
   * The run planned `total` windows; `upToDate` targets needed none (earlier runs finished them);
   * an ingestion run also states its request plan, printed instead of the start line.
   */
  start(total: number, upToDate: number, plan?: PlanStatement): void;
  /** A window is being fetched. */
  begin(label: string): void;
  /** A window finished: committed with `rows` rows, or failed with `error`. */
  end(label: string, outcome: WindowOutcome): void;
  /** A free line (retry notices, warnings). */
  note(line: string): void;
  finish(): void;
}

/** A reporter that prints nothing (tests, library use). */
export const SILENT_PROGRESS: ProgressReporter = {
  start() {},
  begin() {},
  end() {},
  note() {},
  finish() {},
};

/** Where and how to report. */
export interface ProgressOptions {
  readonly stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Draw a bar (default: whether the stream is a TTY). */
  readonly tty?: boolean;
  readonly now?: () => number;
  /** The line printed by `start` (default: the windows an ingestion run will fetch). */
  readonly startLine?: (total: number, upToDate: number) => string;
}

/** Formats a duration in ms as `1h02m`, `3m05s` or `12s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** Remaining time from the mean duration of finished windows; null before the first one. */
export function eta(done: number, total: number, elapsedMs: number): number | null {
  return done === 0 ? null : (elapsedMs / done) * (total - done);
}

/** The bar line: `[#####-----] 12/40  30%  ETA 1m20s  prices ES 2025-01-01..2026-01-01`. */
export function barLine(done: number, total: number, etaMs: number | null, label: string, width = 24): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  const pct = `${Math.floor(share * 100)}%`.padStart(4);
  return `${bar} ${done}/${total} ${pct}  ETA ${etaMs === null ? '?' : formatDuration(etaMs)}  ${label}`;
}

/**
 * Remaining time from the requests made so far: the planned requests left at the measured rate,
 * never below them at the pace; null before the first request.
 */
export function requestEta(done: number, planned: number, elapsedMs: number, requestsPerMinute: number): number | null {
  if (done === 0) return null;
  const left = Math.max(0, planned - done);
  return Math.max((elapsedMs / done) * left, (left * 60_000) / requestsPerMinute);
}

/** Requests per minute measured over `elapsedMs` (at least a second). */
export function requestRate(done: number, elapsedMs: number): number {
  return Math.round((done * 60_000) / Math.max(1000, elapsedMs));
}

/**
 * Creates the reporter for a stream: a bar on a TTY, one line per window otherwise. With a request
 * plan each line also counts requests against it: `[3/11] flows ES->FR 2025-01-01..2025-02-01: 744
 * row(s); requests 5/19, 240/min (elapsed 1s, ETA 4s)`.
 */
export function createProgress(options: ProgressOptions = {}): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? Boolean(stream.isTTY);
  const now = options.now ?? Date.now;
  const startLine =
    options.startLine ??
    ((n: number, upToDate: number) =>
      `${n} window(s) to fetch${upToDate ? `, ${upToDate} target(s) already up to date` : ''}`);
  let total = 0;
  let done = 0;
  let plan: PlanStatement | undefined;
  let requests = 0;
  let started = now();
  let current = '';
  const clock = () => formatDuration(now() - started);
  const left = () =>
    plan
      ? requestEta(requests, plan.requests, now() - started, plan.requestsPerMinute)
      : eta(done, total, now() - started);
  const counted = () =>
    plan ? `requests ${requests}/${plan.requests}, ${requestRate(requests, now() - started)}/min` : '';
  const draw = () => {
    const label = plan ? `${current}  (${counted()})` : current;
    const line = barLine(done, total, left(), label);
    const cols = stream.columns ?? 120;
    stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, cols - 1))}`);
  };
  const print = (line: string) => {
    if (tty) stream.write(`\r\x1b[2K${line}\n`);
    else stream.write(`${line}\n`);
    if (tty && total > 0) draw();
  };
  return {
    start(n, upToDate, statement) {
      total = n;
      done = 0;
      requests = 0;
      plan = statement;
      started = now();
      for (const line of statement ? statement.lines : [startLine(n, upToDate)]) print(line);
    },
    begin(label) {
      current = label;
      if (tty) draw();
    },
    end(label, outcome) {
      done++;
      requests += outcome.requests ?? 0;
      if (outcome.error) print(`failed ${label}: ${outcome.error}${plan ? ` (${counted()})` : ''}`);
      else if (!tty) {
        const eta = left();
        print(
          `[${done}/${total}] ${label}: ${outcome.rows} row(s)${plan ? `; ${counted()}` : ''} (elapsed ${clock()}${eta === null ? '' : `, ETA ${formatDuration(eta)}`})`,
        );
      } else draw();
    },
    note(line) {
      print(line);
    },
    finish() {
      if (tty) stream.write('\r\x1b[2K');
    },
  };
}
