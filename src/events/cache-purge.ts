/**
 * Purges a shared cache (Varnish, see deploy/varnish.vcl) of what a committed data event made
 * stale: one `PURGE <CACHE_PURGE_URL>` request with the event's tags, space-separated, in
 * `Surrogate-Key` (see cache-tags.ts). The process that commits the data sends it (the in-server
 * follower's leader, or `npm run ingest`), so each change is purged once however many instances
 * serve. A failed purge is logged, never thrown: the cache's TTL bounds the staleness.
 *
 * Each event is purged twice: at once, and again {@link REPURGE_AFTER_MS} later. The instances drop
 * their own caches when the event reaches them (LISTEN, then at most {@link REPLICA_WAIT_MAX_MS} of
 * waiting for a replica's replay), which can be after the first purge reached the shared cache: a
 * miss routed meanwhile to an instance still serving the old body would be stored again for its
 * whole max-age. The second purge removes such a copy.
 */
import { REPLICA_WAIT_MAX_MS } from '../db/replicas.js';
import { eventTags, SURROGATE_KEY_HEADER } from '../http/cache-tags.js';
import type { DataEvent } from './data-events.js';

/** Delay of the second purge of an event, ms: past the longest an instance waits for its replica, plus a second. */
export const REPURGE_AFTER_MS = REPLICA_WAIT_MAX_MS + 1_000;

/** Options of {@link cachePurger}. */
export interface PurgeOptions {
  /** Delay of the second purge, ms; 0 sends one only. Default {@link REPURGE_AFTER_MS}. */
  readonly repurgeAfterMs?: number;
  /** Whether a pending second purge keeps the process alive (a CLI run: yes; a server that may stop: no). Default true. */
  readonly keepAlive?: boolean;
}

/** Longest a purge request may take, ms. */
export const PURGE_TIMEOUT_MS = 5_000;

/** Sends the purge of one event; resolves when the first is answered or has failed (logged); the second follows on a timer. */
export type CachePurger = (event: DataEvent) => Promise<void>;

/** A purger sending to `url`, or undefined without one (CACHE_PURGE_URL unset); `warn` is told of failures. */
export function cachePurger(
  url: string | undefined,
  warn: (line: string) => void = () => {},
  options: PurgeOptions = {},
): CachePurger | undefined {
  if (!url) return undefined;
  const { repurgeAfterMs = REPURGE_AFTER_MS, keepAlive = true } = options;
  const send = async (tags: readonly string[]) => {
    try {
      const res = await fetch(url, {
        method: 'PURGE',
        headers: { [SURROGATE_KEY_HEADER]: tags.join(' ') },
        signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      if (!res.ok) warn(`cache purge of ${tags.join(' ')} refused: HTTP ${res.status}`);
    } catch (err) {
      warn(`cache purge of ${tags.join(' ')} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return async (event) => {
    const tags = eventTags(event);
    await send(tags);
    if (repurgeAfterMs <= 0) return;
    const timer = setTimeout(() => void send(tags), repurgeAfterMs);
    if (!keepAlive) timer.unref();
  };
}
