/**
 * The follower inside the server (INGEST_FOLLOW): the CLI's `--follow` loop over every zone,
 * border and item, paced and retried by the same client settings, run by the elected leader only
 * (see leader.ts) on the direct connection past a pooler (see `Database.direct`), which passes the lease's fence before each cycle. A rejected token stops following (logged) until restart; any other failure of
 * a cycle is retried at the next one.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { classificationThresholds, type Config } from '../config.js';
import { type Database, directOf } from '../db/client.js';
import type { Logger } from '../logger.js';
import { ensureCatalogue } from '../repositories/catalogue/catalogue.js';
import { type ItemFreshness, readIngestFreshness } from '../repositories/ingest/status.js';
import { cachePurger } from '../events/cache-purge.js';
import { EntsoeClient, entsoeClientOptions } from './client.js';
import { EntsoeAuthError } from './entsoe/index.js';
import { follow } from './follow.js';
import { type IngestSummary, runIngest } from './job.js';
import { elect } from '../db/leader.js';
import { ITEMS } from '../domain/items.js';
import type { TargetSelection } from './windows.js';

/** Consecutive failed cycles from which /readyz says the follower is failing (reported only: the instance stays ready). */
export const FOLLOWER_FAILING_CYCLES = 3;

/** The outcome of this instance's follow cycles (none unless it leads). */
export interface FollowerCycles {
  /** When the last cycle ended, ms since epoch; undefined before the first. */
  readonly lastAt?: number;
  /** Whether the last cycle loaded every window it planned (windows not published yet are no failure). */
  readonly lastOk?: boolean;
  /** Failed cycles in a row, 0 after a success. */
  readonly consecutiveFailures: number;
}

/** Records cycle outcomes: `ok()` or `failed()` as each cycle ends (why is logged, not kept: /readyz is public), `read()` the state. */
export function cycleRecorder(now: () => number = Date.now): { ok(): void; failed(): void; read(): FollowerCycles } {
  let state: FollowerCycles = { consecutiveFailures: 0 };
  return {
    ok: () => void (state = { lastAt: now(), lastOk: true, consecutiveFailures: 0 }),
    failed: () => void (state = { lastAt: now(), lastOk: false, consecutiveFailures: state.consecutiveFailures + 1 }),
    read: () => state,
  };
}

/** What /readyz and /metrics report of the follower. */
export interface FollowerStatus {
  /** This instance's follow cycles. */
  cycles(): FollowerCycles;
  /** Whether this instance leads (and so ingests). */
  isLeader(): boolean;
  /** Last success per item, from the database (the same on every instance). */
  freshness(): Promise<ItemFreshness[]>;
}

/** A running in-server follower. */
export interface ServerFollower extends FollowerStatus {
  /** Stops after the current window (a commit completes) and leaves the election. */
  close(): Promise<void>;
}

/** Test seams and overrides of {@link startServerFollower}. */
export interface ServerFollowerOptions {
  readonly config: Config;
  readonly db: Database;
  readonly logger?: Logger;
  /** The upstream client; default one built from the ENTSOE_* settings. */
  readonly client?: EntsoeClient;
  /** What to follow; default every item of every zone and border. */
  readonly selection?: TargetSelection;
}

function clientFor(config: Config, logger?: Logger): EntsoeClient {
  if (!config.ENTSOE_SECURITY_TOKEN) throw new Error('INGEST_FOLLOW needs ENTSOE_SECURITY_TOKEN');
  return new EntsoeClient(
    entsoeClientOptions(config, config.ENTSOE_SECURITY_TOKEN, (e) =>
      logger?.warn(
        { attempt: e.attempt, request: e.request, reason: e.reason, delayMs: e.delayMs },
        'ENTSO-E request retried',
      ),
    ),
  );
}

/** Starts competing for leadership; the leader follows until closed. */
export function startServerFollower(opts: ServerFollowerOptions): ServerFollower {
  const { config, db, logger } = opts;
  const client = opts.client ?? clientFor(config, logger);
  const selection = opts.selection ?? { what: [...ITEMS] };
  const intervalMs = config.INGEST_FOLLOW_INTERVAL_MINUTES * 60_000;
  const purge = cachePurger(config.CACHE_PURGE_URL, (line) => logger?.warn(line), { keepAlive: false });
  const cycles = cycleRecorder();
  const onCycle = (summary: IngestSummary) => (summary.fatal || summary.failed.length ? cycles.failed() : cycles.ok());
  const lead = async (signal: AbortSignal, fence: () => Promise<void>) => {
    const catalogue = await ensureCatalogue(directOf(db));
    const runOnce = async (range: { from: Date; to: Date }) =>
      fence().then(() =>
        runIngest({
          db: directOf(db),
          client,
          catalogue,
          signal,
          thresholds: classificationThresholds(config),
          ...range,
          ...selection,
          args: { ...range, follow: 'server' },
          ...(purge ? { onCommitted: purge } : {}),
        }),
      );
    while (!signal.aborted) {
      try {
        await follow({ runOnce, intervalMs, signal, onCycle, log: (line) => logger?.info(line) });
      } catch (err) {
        if (err instanceof EntsoeAuthError) {
          logger?.error(
            { err: err.message },
            'ingest follower: the platform rejected the token; not following until restart',
          );
          await delay(2 ** 31 - 1, undefined, { signal }).catch(() => undefined);
          return;
        }
        cycles.failed();
        logger?.error(
          { err: err instanceof Error ? err.message : String(err) },
          'ingest follower: cycle failed; retrying at the next one',
        );
        await delay(intervalMs, undefined, { signal }).catch(() => undefined);
      }
    }
  };
  const election = elect(db, {
    lead,
    retryMs: config.INGEST_FOLLOW_LEADER_RETRY_SECONDS * 1000,
    leaseMs: config.INGEST_FOLLOW_LEADER_LEASE_SECONDS * 1000,
    ...(logger ? { logger } : {}),
  });
  return {
    isLeader: election.isLeader,
    cycles: cycles.read,
    freshness: () => readIngestFreshness(db),
    close: election.close,
  };
}
