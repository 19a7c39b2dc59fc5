/**
 * Progress of an ingestion run: a one-line bar with ETA redrawn on a terminal, plain log lines
 * otherwise (CI, files, pipes). Writes to stderr only; stdout stays free for the final summary.
 */

/** What the job reports. */
export interface ProgressReporter {
  /** The run planned `total` windows; `upToDate` targets needed none (earlier runs finished them). */
  start(total: number, upToDate: number): void;
  /** A window is being fetched. */
  begin(label: string): void;
  /** A window finished: committed with `rows` rows, or failed with `error`. */
  end(label: string, outcome: { rows: number; error?: string }): void;
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

/** Creates the reporter for a stream: a bar on a TTY, one line per window otherwise. */
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
  let started = now();
  let current = '';
  const clock = () => formatDuration(now() - started);
  const draw = () => {
    const line = barLine(done, total, eta(done, total, now() - started), current);
    const cols = stream.columns ?? 120;
    stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, cols - 1))}`);
  };
  const print = (line: string) => {
    if (tty) stream.write(`\r\x1b[2K${line}\n`);
    else stream.write(`${line}\n`);
    if (tty && total > 0) draw();
  };
  return {
    start(n, upToDate) {
      total = n;
      done = 0;
      started = now();
      print(startLine(n, upToDate));
    },
    begin(label) {
      current = label;
      if (tty) draw();
    },
    end(label, outcome) {
      done++;
      if (outcome.error) print(`failed ${label}: ${outcome.error}`);
      else if (!tty) {
        const left = eta(done, total, now() - started);
        print(
          `[${done}/${total}] ${label}: ${outcome.rows} row(s) (elapsed ${clock()}${left === null ? '' : `, ETA ${formatDuration(left)}`})`,
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
