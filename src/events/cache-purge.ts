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
 * whole max-age. So every serving instance with CACHE_PURGE_URL also purges the event's tags once it
 * has dropped its own caches ({@link instancePurger}): the last of those purges follows the last
 * instance's drop, after which a miss can only store the new body. The second purge of the
 * committing process covers instances configured without CACHE_PURGE_URL.
 */
import { REPLICA_WAIT_MAX_MS } from '../db/replicas.js';
import { eventTags, SURROGATE_KEY_HEADER, safeTags } from '../http/cache-tags.js';
import type { DataEvent } from '../domain/data-events.js';

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

/**
 * One `PURGE <url>` with `tags` in `Surrogate-Key` (unsafe tags refused: see safeTags; nothing sent
 * when none is left); a refusal or failure goes to `warn`, never thrown.
 */
async function sendPurge(url: string, unchecked: readonly string[], warn: (line: string) => void): Promise<void> {
  const tags = safeTags(unchecked);
  if (!tags.length) return;
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
}

/** A purger sending to `url`, or undefined without one (CACHE_PURGE_URL unset); `warn` is told of failures. */
export function cachePurger(
  url: string | undefined,
  warn: (line: string) => void = () => {},
  options: PurgeOptions = {},
): CachePurger | undefined {
  if (!url) return undefined;
  const { repurgeAfterMs = REPURGE_AFTER_MS, keepAlive = true } = options;
  return async (event) => {
    const tags = eventTags(event);
    await sendPurge(url, tags, warn);
    if (repurgeAfterMs <= 0) return;
    const timer = setTimeout(() => void sendPurge(url, tags, warn), repurgeAfterMs);
    if (!keepAlive) timer.unref();
  };
}

/** Most tags in one PURGE request of {@link instancePurger} (the `Surrogate-Key` header stays a few KiB). */
export const PURGE_TAGS_PER_REQUEST = 200;

/**
 * The purge a serving instance sends after dropping its own caches for data events: the tags of
 * every event handed to it within one turn of the event loop, merged and sent in requests of at most
 * {@link PURGE_TAGS_PER_REQUEST} tags (a burst of thousands of events costs a few requests, not one
 * each). Failures are logged through `warn`, never thrown. Undefined without `url`.
 */
export function instancePurger(
  url: string | undefined,
  warn: (line: string) => void = () => {},
): ((event: DataEvent) => void) | undefined {
  if (!url) return undefined;
  let pending: Set<string> | undefined;
  const flush = () => {
    const tags = [...(pending ?? [])];
    pending = undefined;
    for (let i = 0; i < tags.length; i += PURGE_TAGS_PER_REQUEST)
      void sendPurge(url, tags.slice(i, i + PURGE_TAGS_PER_REQUEST), warn);
  };
  return (event) => {
    if (!pending) {
      pending = new Set();
      setImmediate(flush);
    }
    for (const tag of eventTags(event)) pending.add(tag);
  };
}
