/**
 * The version of the served data in this server instance: a counter bumped by every committed
 * ingestion window (data event) and whenever the events listener (re)connects, since events may
 * have been missed meanwhile. Response caches and ETags derive from it.
 */

/** A data version counter with change listeners. */
export interface DataVersion {
  /** The current version (starts at 1). */
  readonly current: number;
  /** Moves to a new version and tells every listener. */
  bump(): void;
  /** Calls `listener` after each bump; returns the unsubscribe function. */
  onChange(listener: (version: number) => void): () => void;
}

/** A fresh counter. */
export function createDataVersion(): DataVersion {
  let current = 1;
  const listeners = new Set<(version: number) => void>();
  return {
    get current() {
      return current;
    },
    bump() {
      current++;
      for (const l of listeners) l(current);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
