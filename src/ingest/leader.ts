/**
 * Leader election for the in-server follower: of the server instances sharing one PostgreSQL
 * schema, only the one holding a session-level advisory lock follows. The lock lives on a dedicated
 * connection (not from the pool; to the server itself past a pooler: see `Database.direct`); an instance that dies, or whose connection breaks, loses it with
 * its session, and another instance takes it at its next attempt (every `retryMs`). On the embedded
 * database the single process that owns it is always the leader.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { type Database, directOf } from '../db/client.js';
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
  /** The leader's work: runs until `signal` aborts (leadership lost or election closed). */
  readonly lead: (signal: AbortSignal) => Promise<void>;
  /** Pause between attempts of a non-leader, ms. */
  readonly retryMs: number;
  readonly logger?: Logger;
}

/** Competes for leadership until closed; the winner runs `lead`. */
export function elect(db: Database, opts: ElectionOptions): Election {
  const stop = new AbortController();
  let leader = false;
  const leadUntil = async (signal: AbortSignal) => {
    leader = true;
    opts.logger?.info('ingest follower: leading');
    try {
      await opts.lead(signal);
    } catch (err) {
      opts.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'ingest follower stopped');
    } finally {
      leader = false;
    }
  };
  const running = db.kind === 'pglite' ? leadUntil(stop.signal) : compete(db, opts, stop.signal, leadUntil);
  return {
    isLeader: () => leader,
    async close() {
      stop.abort();
      await running;
    },
  };
}

async function compete(db: Database, opts: ElectionOptions, stop: AbortSignal, leadUntil: (signal: AbortSignal) => Promise<void>): Promise<void> {
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
      const rows = (await client.query<{ won: boolean }>(`SELECT pg_try_advisory_lock(${LEADER_LOCK}) AS won`)).rows;
      if (rows[0]?.won) {
        await leadUntil(lost.signal);
        if (!stop.aborted) opts.logger?.warn('ingest follower: leadership lost; competing again');
      }
    } catch (err) {
      opts.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'ingest follower: leader election failed; retrying');
    } finally {
      stop.removeEventListener('abort', onStop);
      if (!ended) await client.end().catch(() => undefined);
    }
    await delay(opts.retryMs, undefined, { signal: stop }).catch(() => undefined);
  }
}
