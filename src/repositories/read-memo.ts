/**
 * Results of small reads that many requests repeat (the upstream sources of a response's range),
 * kept until the served data changes: the app empties the memo at every data version bump, as it
 * does its response caches (see `events/version.ts`).
 */
import { LRUCache } from 'lru-cache';

/** Keeps read results by key. */
export interface ReadMemo {
  /** The result kept under `key`, or else `load()`'s, which is kept unless it fails (concurrent callers share it). */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** No memo: every read runs. */
export const NO_MEMO: ReadMemo = { get: (_key, load) => load() };

/** A memo of at most `max` results (least recently used first out), emptied by `clear()`. */
export function createReadMemo(max: number): ReadMemo & { clear(): void } {
  const results = new LRUCache<string, Promise<unknown>>({ max });
  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const kept = results.get(key) as Promise<T> | undefined;
      if (kept) return kept;
      const result = load();
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
