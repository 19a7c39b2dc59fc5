/** The server's clock and data sources, as the API's `meta` reports them (the page reads no browser clock after start). */
import { request } from './api.js';
import { ClockQuery } from './queries.js';

/** The part of an answer the clock reads: `resolvedTo` of a range ending `now` and the upstream sources. */
export interface ClockAnswer {
  readonly meta: { readonly resolvedTo?: string | null; readonly upstreamSources?: readonly string[] | null };
}

/** The server's clock. */
export interface ServerClock {
  /** The server's current time, UTC ms (the browser's until the server said). */
  now(): number;
  /** Takes the time and the sources of an answer. */
  set(clock: ClockAnswer): void;
  /** Asks the server (`ClockQuery`) and takes its answer. */
  read(): Promise<void>;
}

/** What `#sources` says of the upstream sources (null: leave it). */
export const sourcesText = (sources: readonly string[]): string | null =>
  sources.length ? `Data source: ${sources.join(', ')}.` : null;

/** A clock that names the sources in `sources`. */
export function createServerClock(sources: HTMLElement): ServerClock {
  let nowMs = Date.now();
  const set = (clock: ClockAnswer) => {
    if (clock.meta.resolvedTo) nowMs = Date.parse(clock.meta.resolvedTo);
    const text = sourcesText(clock.meta.upstreamSources ?? []);
    if (text !== null) sources.textContent = text;
  };
  return {
    now: () => nowMs,
    set,
    read: async () => set((await request(ClockQuery, {})).clock),
  };
}
