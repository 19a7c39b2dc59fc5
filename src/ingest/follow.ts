/**
 * `--follow`: keeps the database current until stopped. Every cycle ingests a rolling range from a
 * few days back to the end of the day after tomorrow (UTC). Windows finished earlier cover their
 * range only up to when they finished (minus a settling margin per item, see windows.ts), so each
 * cycle fetches just the recent and future parts: tomorrow's day-ahead prices (published around
 * 13:00 CET) appear in the first cycle after publication, flows and outages during the day.
 */
import { CONFIG_DEFAULTS, DEFAULT_LOOKBACK_DAYS } from '../config.js';
import { setTimeout as delay } from 'node:timers/promises';
import { DAY_MS as DAY } from '../domain/calendar.js';
import { EntsoeAuthError } from './entsoe/index.js';
import type { IngestSummary } from './job.js';

/** Settings of the follow loop. */
export interface FollowOptions {
  /** Runs one ingestion over [from, to). */
  readonly runOnce: (range: { from: Date; to: Date }) => Promise<IngestSummary>;
  /** Pause between cycles, ms. Default: INGEST_FOLLOW_INTERVAL_MINUTES's. */
  readonly intervalMs?: number;
  /** Days before today (UTC) each cycle covers, to pick up revisions. Default {@link DEFAULT_LOOKBACK_DAYS}. */
  readonly lookbackDays?: number;
  /** Stops the loop (after the current window of the current cycle). */
  readonly signal?: AbortSignal;
  readonly now?: () => Date;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly log?: (line: string) => void;
  /** Told each cycle's summary as it ends. */
  readonly onCycle?: (summary: IngestSummary) => void;
}

/** The range of one follow cycle: [today - lookback, today + 2 days) in UTC days. */
export function followRange(now: Date, lookbackDays: number): { from: Date; to: Date } {
  const today = Math.floor(now.getTime() / DAY) * DAY;
  return { from: new Date(today - lookbackDays * DAY), to: new Date(today + 2 * DAY) };
}

/**
 * Loops until `signal` aborts. A cycle with failed windows is logged and retried at the next cycle;
 * a rejected token ends the loop with the error (retrying cannot fix it).
 * @returns the number of cycles run.
 * @throws EntsoeAuthError when the platform rejects the token.
 */
export async function follow(opts: FollowOptions): Promise<number> {
  const now = opts.now ?? (() => new Date());
  const sleep = opts.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }));
  const log = opts.log ?? (() => {});
  const interval = opts.intervalMs ?? CONFIG_DEFAULTS.INGEST_FOLLOW_INTERVAL_MINUTES * 60_000;
  let cycles = 0;
  while (!opts.signal?.aborted) {
    const range = followRange(now(), opts.lookbackDays ?? DEFAULT_LOOKBACK_DAYS);
    const summary = await opts.runOnce(range);
    cycles++;
    opts.onCycle?.(summary);
    if (summary.fatal instanceof EntsoeAuthError) throw summary.fatal;
    const problems = summary.fatal
      ? `; stopped: ${summary.fatal.message}`
      : summary.failed.length
        ? `; ${summary.failed.length} window(s) failed`
        : '';
    const waiting = summary.unpublished.length ? `, ${summary.unpublished.length} not published yet` : '';
    log(
      `follow cycle ${cycles}: ${summary.completed}/${summary.planned} window(s), ${summary.rows} row(s), ${summary.requests}/${summary.plannedRequests} request(s)${waiting}${problems}`,
    );
    if (opts.signal?.aborted) break;
    try {
      await sleep(interval, opts.signal);
    } catch {
      break;
    }
  }
  return cycles;
}
