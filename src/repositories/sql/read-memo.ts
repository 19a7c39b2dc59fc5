/**
 * Results of small reads that many requests repeat (the upstream sources of a response's range),
 * kept until the served data changes: the app empties the memo at every data version bump, as it
 * does its response caches (see `events/version.ts`), and a result lives at most a minute, as
 * the caches' entries of recent ranges do, for writes that send no data event (`db:seed`).
 */
import { LRUCache } from 'lru-cache';
import { detachedFromRequest } from '../../deadline.js';
import { RESPONSE_CACHE } from '../../limits.js';

/** Keeps read results by key. */
export interface ReadMemo {
  /**
   * The result kept under `key`, or else `load()`'s, which is kept unless it fails. Concurrent
   * callers share it, so it runs outside the first caller's request: that request's timeout or
   * departure does not cancel it for the others.
   */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** No memo: every read runs. */
export const NO_MEMO: ReadMemo = { get: (_key, load) => load() };

/**
 * A memo of at most `max` results (least recently used first out), each kept `ttlMs` at most,
 * emptied by `clear()`; by default the app's sizes (`RESPONSE_CACHE` in limits.ts).
 */
export function createReadMemo(
  max: number = RESPONSE_CACHE.readMemoEntries,
  ttlMs: number = RESPONSE_CACHE.readMemoTtlMs,
): ReadMemo & { clear(): void } {
  const results = new LRUCache<string, Promise<unknown>>({ max, ttl: ttlMs });
  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const kept = results.get(key) as Promise<T> | undefined;
      if (kept) return kept;
      const result = detachedFromRequest(load);
      results.set(key, result);
      result.catch(() => {
        if (results.peek(key) === result) results.delete(key);
      });
      return result;
    },
    clear: () => results.clear(),
  };
}

/** The memo key of a statement: its text and parameter values. */
export function statementKey(statement: { readonly text: string; readonly values: readonly unknown[] }): string {
  return `${statement.text}\u0000${JSON.stringify(statement.values)}`;
}
