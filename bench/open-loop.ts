/**
 * Open-loop load at a fixed rate for the access bench (bench/access.ts): requests leave on a fixed
 * schedule whatever the answers, so a slow server meets the same arrival rate (no coordinated
 * omission); latency counts from the scheduled instant and so includes any wait for a connection.
 */
import { Agent, request } from 'node:http';

/** A fixed-rate run: `ratePerSecond` requests per second for `seconds`, API keys in turn. */
export interface OpenLoopOptions {
  /** `http://127.0.0.1:<port>`; loopback only. */
  readonly base: string;
  readonly path: string;
  /** Request i carries `keys[i % keys.length]` in `x-api-key`. */
  readonly keys: readonly string[];
  readonly ratePerSecond: number;
  readonly seconds: number;
  /** The keep-alive connections ({@link loadAgent}), shared by the runs against one server. */
  readonly agent: Agent;
  /** A request still unanswered after this long counts as an error. */
  readonly timeoutMs?: number;
  /** Called once, `seconds / 2` into the run. */
  readonly midway?: () => void;
}

/** One answered request: when it was scheduled (ms after the start) and how long it took (ms). */
export interface Timing {
  readonly at: number;
  /** From the scheduled instant to the end of the response. */
  readonly ms: number;
  /** From the moment it left the driver to the end of the response. */
  readonly sendMs: number;
}

/** What the requests of a run got. */
export interface LoadTally {
  readonly sent: number;
  /** Wall time from the first scheduled request to the last answer, ms. */
  readonly elapsedMs: number;
  /** The 200s, in order of completion. */
  readonly accepted: Timing[];
  /** The 429s, in order of completion. */
  readonly rejected: Timing[];
  /** Any other status or transport error, by status or error code. */
  readonly other: Map<string, number>;
  /** 200s per key (index into `keys`). */
  readonly acceptedPerKey: number[];
  /** 429s without a whole-second `Retry-After` of at least 1. */
  readonly badRetryAfter: number;
  /** 200s and 429s without `RateLimit-Limit`, `-Remaining` and `-Reset`. */
  readonly missingRateLimitHeaders: number;
  /** Distinct `RateLimit-Limit` values seen. */
  readonly limitValues: Set<string>;
  /** How late requests left against their schedule (ms), sorted ascending. */
  readonly dispatchLagMs: number[];
}

/** The `ms` (or `sendMs`) of `timings`, ascending. */
export function sortedLatencies(timings: readonly Timing[], field: 'ms' | 'sendMs' = 'ms'): number[] {
  return timings.map((t) => t[field]).sort((a, b) => a - b);
}

/** The `q` quantile (0..1) of ascending `sorted` values, nearest rank; NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined> } | { error: string };

function get(agent: Agent, url: URL, key: string, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { 'x-api-key': key, accept: 'application/json' } }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

/** A keep-alive agent of at most `connections` sockets, used in turn (FIFO) so that none idles out. */
export function loadAgent(connections: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: connections, scheduling: 'fifo' });
}

const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/**
 * Sends `ratePerSecond * seconds` GET requests, request i scheduled at `i / ratePerSecond` s, and
 * resolves once every one is answered or timed out. Bounded in time: nothing is sent after
 * `seconds`, and nothing is awaited longer than `timeoutMs` after that.
 */
export async function runOpenLoop(opts: OpenLoopOptions): Promise<LoadTally> {
  const url = new URL(opts.path, opts.base);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const total = Math.floor(opts.ratePerSecond * opts.seconds);
  const tally = {
    sent: 0,
    elapsedMs: 0,
    accepted: [] as Timing[],
    rejected: [] as Timing[],
    other: new Map<string, number>(),
    acceptedPerKey: opts.keys.map(() => 0),
    badRetryAfter: 0,
    missingRateLimitHeaders: 0,
    limitValues: new Set<string>(),
    dispatchLagMs: [] as number[],
  };
  const record = (i: number, scheduled: number, sent: number, answer: Answer) => {
    const now = performance.now();
    const timing = { at: scheduled - start, ms: now - scheduled, sendMs: now - sent };
    if ('error' in answer) return void tally.other.set(answer.error, (tally.other.get(answer.error) ?? 0) + 1);
    const { status, headers } = answer;
    if (status !== 200 && status !== 429)
      return void tally.other.set(`HTTP ${status}`, (tally.other.get(`HTTP ${status}`) ?? 0) + 1);
    if (RATE_LIMIT_HEADERS.some((h) => headers[h] === undefined)) tally.missingRateLimitHeaders++;
    tally.limitValues.add(String(headers['ratelimit-limit']));
    if (status === 200) {
      tally.accepted.push(timing);
      tally.acceptedPerKey[i % opts.keys.length]!++;
    } else {
      tally.rejected.push(timing);
      const retryAfter = String(headers['retry-after']);
      if (!/^\d+$/.test(retryAfter) || Number(retryAfter) < 1) tally.badRetryAfter++;
    }
  };
  const inflight: Promise<void>[] = [];
  const start = performance.now();
  const midway = opts.midway && setTimeout(opts.midway, (opts.seconds * 1000) / 2);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - start) / 1000) * opts.ratePerSecond) + 1);
      for (; tally.sent < due; tally.sent++) {
        const i = tally.sent;
        const scheduled = start + (i * 1000) / opts.ratePerSecond;
        tally.dispatchLagMs.push(now - scheduled);
        inflight.push(
          get(opts.agent, url, opts.keys[i % opts.keys.length]!, timeoutMs).then((a) => record(i, scheduled, now, a)),
        );
      }
      if (tally.sent >= total) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(tick, 1);
    tick();
  });
  await Promise.all(inflight);
  if (midway) clearTimeout(midway);
  tally.elapsedMs = performance.now() - start;
  tally.dispatchLagMs.sort((a, b) => a - b);
  return tally;
}
