/** The Markdown report of the access bench (bench/access.ts). */
import type { Config } from '../src/config.js';
import { type ProcessSample, SERVER_COMMAND } from './access-server.js';
import { type LoadTally, quantile, sortedLatencies, type Timing } from './open-loop.js';

/** Accepted-request p99 target, ms. */
export const P99_TARGET_MS = 50;
/** Growth of the live heap (after a full GC) over the run that still counts as flat. */
export const FLAT_HEAP_GROWTH = 0.1;

/** Memory after a forced full garbage collection, bytes. */
export interface LiveMemory {
  readonly heapUsed: number;
  readonly rss: number;
}

/** Everything one leg (one server child) measured. */
export interface LegResult {
  readonly name: string;
  /** The configuration the server parsed from its environment. */
  readonly config: Config;
  readonly path: string;
  /** Rows in one response of `path`. */
  readonly rows: number;
  readonly keys: number;
  /** Requests per second over all keys. */
  readonly rate: number;
  readonly seconds: number;
  readonly connections: number;
  /** The warm-up at the full rate on keys of their own, from a cold server. */
  readonly warmup: LoadTally;
  readonly tally: LoadTally;
  /** `/metrics` samples: one before the load (t < 0), one per second during it, one after it. */
  readonly samples: readonly ProcessSample[];
  /** Live heap and RSS (bytes) after a forced full GC: after the warm-up, and just after the load. */
  readonly live: { readonly before: LiveMemory; readonly after: LiveMemory };
  /** Bucket keys found in Redis halfway through (Redis leg only). */
  readonly redisBuckets: number | undefined;
  readonly warnings: readonly string[];
  /** Exit code (or signal) of the server after SIGTERM. */
  readonly exit: string;
}

const ms = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(0);
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const mark = (ok: boolean) => (ok ? 'yes' : '**NO**');
const spread = (sorted: readonly number[]) =>
  `${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.99))} / ${ms(sorted[sorted.length - 1] ?? Number.NaN)}`;

/** Accepted latencies (ascending) before the first 429 (buckets still holding their burst) and from it on. */
function phases(t: LoadTally): { burst: number[]; limited: number[]; firstRefusalS: number } {
  const firstRefusal = Math.min(...t.rejected.map((r) => r.at));
  const pick = (keep: (a: Timing) => boolean) => sortedLatencies(t.accepted.filter(keep));
  return {
    burst: pick((a) => a.at < firstRefusal),
    limited: pick((a) => a.at >= firstRefusal),
    firstRefusalS: firstRefusal / 1000,
  };
}

/** Accepted requests slower than the target, with the seconds of the run they were sent in (`s<second>: count`). */
function slowAccepted(t: LoadTally): string {
  const bySecond = new Map<number, number>();
  for (const a of t.accepted)
    if (a.ms >= P99_TARGET_MS) bySecond.set(Math.floor(a.at / 1000), (bySecond.get(Math.floor(a.at / 1000)) ?? 0) + 1);
  const total = [...bySecond.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return '0';
  const seconds = [...bySecond].sort(([a], [b]) => a - b).map(([sec, n]) => `s${sec}: ${n}`);
  return `${total} (${seconds.slice(0, 8).join(', ')}${seconds.length > 8 ? ', …' : ''})`;
}

/** Memory and CPU figures of a leg's samples. */
function processFigures(r: LegResult) {
  const start = r.samples[0]!;
  const end = r.samples[r.samples.length - 1]!;
  const during = r.samples.filter((s) => s.t >= 0);
  const third = Math.max(1, Math.floor(during.length / 3));
  const firstThird = mean(during.slice(0, third).map((s) => s.heapUsedBytes));
  const lastThird = mean(during.slice(-third).map((s) => s.heapUsedBytes));
  return {
    start,
    end,
    rssPeak: Math.max(...r.samples.map((s) => s.rssBytes)),
    heapPeak: Math.max(...r.samples.map((s) => s.heapUsedBytes)),
    firstThird,
    lastThird,
    thirdsGrowth: (lastThird - firstThird) / firstThird,
    liveGrowth: (r.live.after.heapUsed - r.live.before.heapUsed) / r.live.before.heapUsed,
    cpuShare: (end.cpuSeconds - start.cpuSeconds) / (end.t / 1000),
    loopP99: Math.max(...during.map((s) => s.loopDelayP99Ms)),
    poolWaitingMax: Math.max(...during.map((s) => s.poolWaiting)),
    served: end.served.total - start.served.total,
    servedWithin: end.served.within50Ms - start.served.within50Ms,
    scrapesOk: r.samples.filter((s) => s.status === 200).length,
  };
}

/** Pass/fail of the three claims for one leg. */
export function verdict(r: LegResult): { noErrors: boolean; p99: boolean; flat: boolean } {
  const t = r.tally;
  const others = [...t.other.values()].reduce((a, b) => a + b, 0);
  return {
    noErrors:
      others === 0 &&
      t.accepted.length + t.rejected.length === t.sent &&
      t.badRetryAfter === 0 &&
      t.missingRateLimitHeaders === 0,
    p99: quantile(sortedLatencies(t.accepted), 0.99) < P99_TARGET_MS,
    flat: processFigures(r).liveGrowth < FLAT_HEAP_GROWTH,
  };
}

/** The rows of one leg's column: [label, value]; every leg has the same labels. */
function column(r: LegResult): [string, string][] {
  const t = r.tally;
  const p = processFigures(r);
  const c = r.config;
  const expected = r.keys * (c.RATE_LIMIT_CAPACITY + c.RATE_LIMIT_REFILL_PER_SECOND * r.seconds);
  const v = verdict(r);
  const ph = phases(t);
  return [
    [
      'requests sent',
      `${t.sent} (${(t.sent / (t.elapsedMs / 1000)).toFixed(0)}/s over ${(t.elapsedMs / 1000).toFixed(1)} s)`,
    ],
    ['accepted (200) / expected keys x (capacity + refill x seconds)', `${t.accepted.length} / ≈ ${expected}`],
    ['accepted per key, min–max', `${Math.min(...t.acceptedPerKey)}–${Math.max(...t.acceptedPerKey)}`],
    ['refused (429)', String(t.rejected.length)],
    ['other statuses and transport errors', [...t.other].map(([k, n]) => `${k} x${n}`).join(', ') || '0'],
    ['429s with a whole-second Retry-After ≥ 1', `${t.rejected.length - t.badRetryAfter} / ${t.rejected.length}`],
    [
      'RateLimit-Limit, -Remaining, -Reset on every 200 and 429',
      `${mark(t.missingRateLimitHeaders === 0)} (limit ${[...t.limitValues].join(', ')})`,
    ],
    ['accepted latency p50 / p99 / max, ms', `**${spread(sortedLatencies(t.accepted))}**`],
    [
      '… accepted before the first 429 (bursts of full buckets): n: p50 / p99 / max, ms',
      `${ph.burst.length}: ${spread(ph.burst)}`,
    ],
    [
      '… accepted from the first 429 on (at the limit): n: p50 / p99 / max, ms',
      Number.isFinite(ph.firstRefusalS)
        ? `${ph.limited.length} (from ${ph.firstRefusalS.toFixed(1)} s): ${spread(ph.limited)}`
        : '– (no 429)',
    ],
    [
      'accepted latency from the send (driver lag left out) p50 / p99 / max, ms',
      spread(sortedLatencies(t.accepted, 'sendMs')),
    ],
    [`accepted taking ${P99_TARGET_MS} ms or more (by second of the run it was sent in)`, slowAccepted(t)],
    ['429 latency p50 / p99 / max, ms', spread(sortedLatencies(t.rejected))],
    [
      'warm-up from a cold server (not in the figures above): accepted of sent: p50 / p99 / max, ms',
      `${r.warmup.accepted.length} of ${r.warmup.sent}: ${spread(sortedLatencies(r.warmup.accepted))}`,
    ],
    [
      'driver send lag behind schedule p99 / max, ms',
      `${ms(quantile(t.dispatchLagMs, 0.99))} / ${ms(t.dispatchLagMs[t.dispatchLagMs.length - 1] ?? Number.NaN)}`,
    ],
    [
      `accepted answered within ${P99_TARGET_MS} ms by the server's own clock (its /metrics latency histogram)`,
      `${p.servedWithin} / ${p.served} (${((p.servedWithin / p.served) * 100).toFixed(2)} %)`,
    ],
    ['queries waiting for a database connection, most at a per-second scrape', String(p.poolWaitingMax)],
    ['server CPU during the load (one core = 100 %)', `${(p.cpuShare * 100).toFixed(0)} %`],
    ['server event-loop delay, worst per-second p99, ms', ms(p.loopP99)],
    ['server RSS before / peak / after, MB', `${mb(p.start.rssBytes)} / ${mb(p.rssPeak)} / ${mb(p.end.rssBytes)}`],
    [
      'server V8 heap used before / peak / after, MB',
      `${mb(p.start.heapUsedBytes)} / ${mb(p.heapPeak)} / ${mb(p.end.heapUsedBytes)}`,
    ],
    [
      'heap used (garbage included), mean of first → last third of the run, MB',
      `${mb(p.firstThird)} → ${mb(p.lastThird)} (${pct(p.thirdsGrowth)})`,
    ],
    [
      'live heap after a forced full GC, after the warm-up → after the load, MB',
      `**${mb(r.live.before.heapUsed)} → ${mb(r.live.after.heapUsed)} (${pct(p.liveGrowth)})**; RSS ${mb(r.live.before.rss)} → ${mb(r.live.after.rss)}`,
    ],
    ['/metrics scrapes answered 200 (never metered)', `${p.scrapesOk} / ${r.samples.length}`],
    ['bucket keys in Redis halfway through', r.redisBuckets === undefined ? '–' : String(r.redisBuckets)],
    ['server log lines at warn or above', String(r.warnings.length)],
    ['server exit status after SIGTERM', r.exit],
    [
      `no errors but 429 / accepted p99 < ${P99_TARGET_MS} ms / live heap growth < ${FLAT_HEAP_GROWTH * 100} %`,
      `${mark(v.noErrors)} / ${mark(v.p99)} / ${mark(v.flat)}`,
    ],
  ];
}

/** The Markdown section: set-up, one column per leg, and notes (skipped legs, server warnings). */
export function reportAccess(results: readonly LegResult[], notes: readonly string[]): string {
  const first = results[0];
  if (!first) return ['### Rate limit under 10x load', '', ...notes, ''].join('\n');
  const c = first.config;
  const columns = results.map(column);
  const labels = columns[0] ?? [];
  const lines = [
    `### Rate limit under 10x load (${new Date().toISOString()})`,
    '',
    `Token bucket per API key at the defaults: capacity ${c.RATE_LIMIT_CAPACITY}, refill ${c.RATE_LIMIT_REFILL_PER_SECOND}/s. ` +
      `${first.keys} keys x ${first.rate / first.keys} req/s (10x the refill) = ${first.rate} req/s, open loop (fixed schedule, keys in turn) for ${first.seconds} s, ` +
      `\`GET ${first.path}\` (${first.rows} rows), ${first.connections} keep-alive connections. ` +
      `Server: \`${SERVER_COMMAND}\` in a child process on 127.0.0.1, PostgreSQL schema \`bench_access\`, LOG_LEVEL=warn; ` +
      'its memory, CPU and event-loop delay from `/metrics` every second; the live heap from a full GC forced through bench/heap-probe.ts (SIGUSR2) after the warm-up and right after the load. ' +
      'Latency counts from the scheduled send time (queueing for a connection included). ' +
      `Warm-up: ${first.warmup.sent} requests at the full rate on ${first.keys} other keys, the first live-heap probe, 300 requests at 100/s on one more key (200 accepted, then 429s), 1 s idle, the "before" sample.`,
    '',
    `| | ${results.map((r) => r.name).join(' | ')} |`,
    `|---|${results.map(() => '---').join('|')}|`,
    ...labels.map(([label], i) => `| ${label} | ${columns.map((col) => col[i]?.[1]).join(' | ')} |`),
    '',
  ];
  for (const r of results) {
    if (r.warnings.length)
      lines.push(`Server log lines at warn or above (${r.name}):`, '', '```', ...r.warnings.slice(0, 10), '```', '');
  }
  if (notes.length) lines.push(...notes, '');
  return lines.join('\n');
}
