/**
 * Purges a shared cache (Varnish, see deploy/varnish.vcl) of what a committed data event made
 * stale: one `PURGE <CACHE_PURGE_URL>` request with the event's tags, space-separated, in
 * `Surrogate-Key` (see cache-tags.ts). The process that commits the data sends it (the in-server
 * follower's leader, or `npm run ingest`), so each change is purged once however many instances
 * serve. A failed purge is logged, never thrown: the cache's TTL bounds the staleness.
 */
import { eventTags, SURROGATE_KEY_HEADER } from '../http/cache-tags.js';
import type { DataEvent } from './data-events.js';

/** Longest a purge request may take, ms. */
export const PURGE_TIMEOUT_MS = 5_000;

/** Sends the purge of one event; resolves when it is answered or has failed (logged). */
export type CachePurger = (event: DataEvent) => Promise<void>;

/** A purger sending to `url`, or undefined without one (CACHE_PURGE_URL unset); `warn` is told of failures. */
export function cachePurger(url: string | undefined, warn: (line: string) => void = () => {}): CachePurger | undefined {
  if (!url) return undefined;
  return async (event) => {
    const tags = eventTags(event);
    try {
      const res = await fetch(url, { method: 'PURGE', headers: { [SURROGATE_KEY_HEADER]: tags.join(' ') }, signal: AbortSignal.timeout(PURGE_TIMEOUT_MS) });
      await res.arrayBuffer();
      if (!res.ok) warn(`cache purge of ${tags.join(' ')} refused: HTTP ${res.status}`);
    } catch (err) {
      warn(`cache purge of ${tags.join(' ')} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
