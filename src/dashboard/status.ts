/**
 * The page's loading state: `body[data-state]` is `loading` while any load runs, `error` after a
 * failed one, else `ready`; `#status` says the server time or the failure. An answer of 401 asks
 * for an API key once every load has ended.
 */
import { ApiError } from './api.js';
import { askForKey } from './api-key.js';

/** What `body[data-state]` says. */
export type PageState = 'loading' | 'error' | 'ready';

/** The page's state with `pending` loads running and the last failure (null: none). */
export const pageState = (pending: number, failed: string | null): PageState =>
  pending > 0 ? 'loading' : failed ? 'error' : 'ready';

/** What `#status` says once every load succeeded: the server clock (UTC ms) as UTC, to the minute. */
export const serverTimeText = (nowMs: number): string =>
  `Server time ${new Date(nowMs).toISOString().slice(0, 16).replace('T', ' ')} UTC.`;

/** Counts the page's running loads and shows their outcome. */
export interface LoadTracker {
  /** Runs `work` as a load: the page is `loading` meanwhile; a throw is shown in `#status` (and ends in `error`). */
  track(work: () => Promise<void>): Promise<void>;
  /** Shows `text` as the page's failure without a load (a range the API would refuse). */
  fail(text: string): void;
}

/** The tracker of `doc`'s loads, writing to `status`; `now` is the server clock, UTC ms. */
export function createLoadTracker(doc: Document, status: HTMLElement, now: () => number): LoadTracker {
  let pending = 0;
  let failed: string | null = null;
  let needsKey: string | null = null;
  const setState = () => {
    if (pending === 0 && needsKey) return askForKey(doc, needsKey);
    doc.body.dataset.state = pageState(pending, failed);
    if (pending === 0 && !failed) status.textContent = serverTimeText(now());
  };
  const track = async (work: () => Promise<void>): Promise<void> => {
    pending++;
    failed = null;
    setState();
    try {
      await work();
    } catch (err) {
      failed = err instanceof Error ? err.message : String(err);
      status.textContent = `Could not load data: ${failed}`;
      if (err instanceof ApiError && err.status === 401) needsKey = failed;
    } finally {
      pending--;
      setState();
    }
  };
  const fail = (text: string) => {
    failed = text;
    status.textContent = text;
    setState();
  };
  return { track, fail };
}
