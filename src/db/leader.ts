/**
 * Leader election for the in-server follower: of the server instances sharing one PostgreSQL
 * schema, only the one holding a session-level advisory lock follows. The lock lives on a dedicated
 * connection (not from the pool; to the server itself past a pooler: see `Database.direct`) and is a lease: the session is ended by the server once idle for
 * `leaseMs` (`idle_session_timeout`, PostgreSQL 14+), so the leader heartbeats on it every third of
 * the lease. An instance that dies, is frozen (SIGSTOP, a stalled VM) or whose connection breaks
 * loses the lock with its session within `leaseMs`, and another instance takes it at its next
 * attempt (every `retryMs`): takeover within `leaseMs + retryMs`. The leader passes a fence (a round
 * trip on the lock's session) before each cycle, so a resumed former leader stops instead of
 * ingesting. On the embedded database the single process that owns it is always the leader.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { type Database, directOf } from './client.js';
import type { Logger } from '../logger.js';

/** The lock key: a hash of the schema, so schemas sharing a database elect their own leaders. */
const LEADER_LOCK = `hashtext('ingest_follow_leader:' || current_schema())::bigint`;

/** A running election. */
export interface Election {
  /** Whether this instance leads now. */
  isLeader(): boolean;
  /** Stops leading (the `lead` work is aborted and awaited) and stops competing. */
  close(): Promise<void>;
}

/** Options of {@link elect}. */
export interface ElectionOptions {
  /**
   * The leader's work: runs until `signal` aborts (leadership lost or election closed), and awaits
   * `fence` before each cycle: it rejects once this instance no longer holds the lock.
   */
  readonly lead: (signal: AbortSignal, fence: () => Promise<void>) => Promise<void>;
  /** Pause between attempts of a non-leader, ms. */
  readonly retryMs: number;
  /** The lease: how long the lock outlives a leader that stopped heartbeating, ms. */
  readonly leaseMs: number;
  readonly logger?: Logger;
}

/** Competes for leadership until closed; the winner runs `lead`. */
export function elect(db: Database, opts: ElectionOptions): Election {
  const stop = new AbortController();
  let leader = false;
  const leadUntil = async (signal: AbortSignal, fence: () => Promise<void>) => {
    if (signal.aborted) return;
    leader = true;
    opts.logger?.info('ingest follower: leading');
    try {
      await opts.lead(signal, fence);
    } catch (err) {
      opts.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'ingest follower stopped');
    } finally {
      leader = false;
    }
  };
  const running =
    db.kind === 'pglite'
      ? leadUntil(stop.signal, async () => stop.signal.throwIfAborted())
      : compete(db, opts, stop.signal, leadUntil);
  return {
    isLeader: () => leader,
    async close() {
      stop.abort();
      await running;
    },
  };
}

/** Heartbeats on the lock's session every third of the lease until `lost` aborts; a failed one aborts it. */
function heartbeat(client: pg.Client, leaseMs: number, lost: AbortController): () => Promise<void> {
  const beat = async () => {
    lost.signal.throwIfAborted();
    try {
      await client.query('SELECT 1');
    } catch (err) {
      lost.abort(err);
      throw err;
    }
  };
  const timer = setInterval(() => void beat().catch(() => undefined), Math.max(1, Math.floor(leaseMs / 3)));
  lost.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  return beat;
}

async function compete(
  db: Database,
  opts: ElectionOptions,
  stop: AbortSignal,
  leadUntil: (signal: AbortSignal, fence: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const pool = directOf(db).pool;
  if (!pool) throw new Error('PostgreSQL database without its pool');
  while (!stop.aborted) {
    const client = new pg.Client({ ...pool.options, keepAlive: true });
    const lost = new AbortController();
    const onStop = () => lost.abort();
    stop.addEventListener('abort', onStop, { once: true });
    let ended = false;
    client.on('error', () => lost.abort());
    client.on('end', () => {
      ended = true;
      lost.abort();
    });
    try {
      await client.connect();
      await client.query(`SELECT set_config('idle_session_timeout', $1, false)`, [String(Math.ceil(opts.leaseMs))]);
      const rows = (await client.query<{ won: boolean }>(`SELECT pg_try_advisory_lock(${LEADER_LOCK}) AS won`)).rows;
      if (rows[0]?.won) {
        await leadUntil(lost.signal, heartbeat(client, opts.leaseMs, lost));
        if (!stop.aborted) opts.logger?.warn('ingest follower: leadership lost; competing again');
      }
    } catch (err) {
      opts.logger?.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'ingest follower: leader election failed; retrying',
      );
    } finally {
      lost.abort();
      stop.removeEventListener('abort', onStop);
      if (!ended) await client.end().catch(() => undefined);
    }
    await delay(opts.retryMs, undefined, { signal: stop }).catch(() => undefined);
  }
}
