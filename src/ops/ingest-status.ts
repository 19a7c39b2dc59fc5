/**
 * The follower's state for operators: the `ingest` section of /readyz and the `ingest_*` gauges
 * of /metrics. Lag is the time since an item's last successful window.
 */
import { Gauge } from 'prom-client';
import { FOLLOWER_FAILING_CYCLES, type FollowerCycles, type FollowerStatus } from '../ingest/server-follow.js';
import type { ServiceMetrics } from './metrics.js';

/** One item's state: its last success (UTC, RFC 3339) and the seconds since. */
export interface ItemReport {
  readonly last_success: string;
  readonly lag_seconds: number;
  /** End of the newest range a successful window covered (UTC). */
  readonly covered_until: string;
}

/** This instance's follow cycles: the last one's end and outcome, and failures in a row. */
export interface CyclesReport {
  readonly last_at: string | null;
  readonly last_ok: boolean | null;
  readonly consecutive_failures: number;
  /** At least {@link FOLLOWER_FAILING_CYCLES} failed in a row (the upstream or the database is down): reported only, the instance stays ready. */
  readonly failing: boolean;
}

/** The /readyz `ingest` section. */
export interface IngestReport {
  readonly following: true;
  readonly leader: boolean;
  readonly cycles: CyclesReport;
  readonly items: Record<string, ItemReport>;
}

function cyclesReport(c: FollowerCycles): CyclesReport {
  return {
    last_at: c.lastAt === undefined ? null : new Date(c.lastAt).toISOString(),
    last_ok: c.lastOk ?? null,
    consecutive_failures: c.consecutiveFailures,
    failing: c.consecutiveFailures >= FOLLOWER_FAILING_CYCLES,
  };
}

/** Reads the report; `now` in ms since epoch. */
export async function ingestReport(status: FollowerStatus, now: number): Promise<IngestReport> {
  const items: Record<string, ItemReport> = {};
  for (const f of await status.freshness()) {
    items[f.item] = {
      last_success: f.lastSuccess.toISOString(),
      lag_seconds: Math.max(0, Math.round((now - f.lastSuccess.getTime()) / 1000)),
      covered_until: f.coveredUntil.toISOString(),
    };
  }
  return { following: true, leader: status.isLeader(), cycles: cyclesReport(status.cycles()), items };
}

/**
 * Adds `ingest_follower_leader` (1 on the instance that follows), and per item
 * `ingest_last_success_timestamp_seconds{item}` and `ingest_lag_seconds{item}`, read at scrape time.
 */
export function registerIngestMetrics(
  metrics: ServiceMetrics,
  status: FollowerStatus,
  now: () => number = Date.now,
): void {
  const registers = [metrics.registry];
  let pending: Promise<IngestReport> | null = null;
  const read = () => (pending ??= ingestReport(status, now()).finally(() => (pending = null)));
  new Gauge({
    name: 'ingest_follower_failed_cycles',
    help: 'Follow cycles in a row that failed on this instance (0 after a success).',
    registers,
    collect() {
      this.set(status.cycles().consecutiveFailures);
    },
  });
  new Gauge({
    name: 'ingest_follower_leader',
    help: '1 when this instance runs the ENTSO-E follower (INGEST_FOLLOW leader), else 0.',
    registers,
    collect() {
      this.set(status.isLeader() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ingest_last_success_timestamp_seconds',
    help: 'Unix time of the last successful ingestion window, by item.',
    labelNames: ['item'],
    registers,
    async collect() {
      for (const [item, r] of Object.entries((await read()).items))
        this.set({ item }, Date.parse(r.last_success) / 1000);
    },
  });
  new Gauge({
    name: 'ingest_lag_seconds',
    help: 'Seconds since the last successful ingestion window, by item.',
    labelNames: ['item'],
    registers,
    async collect() {
      for (const [item, r] of Object.entries((await read()).items)) this.set({ item }, r.lag_seconds);
    },
  });
}
