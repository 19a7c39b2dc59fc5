import type { Plugin } from 'graphql-yoga';
import { accessOf } from './client.js';
import { json } from '../http/errors.js';
import { idleWriteWatch, type WriteProgress } from '../http/idle-write-watch.js';
import { REST_PREFIX } from '../http/paths.js';

/** A response body counts one more request against its client for each this many bytes (a declared Content-Length). */
export const BODY_WEIGHT_BYTES = 4 * 1_024 * 1_024;

/**
 * A REST page counts one more request against its client for each this many rows it asks for
 * (`limit`), from the moment it is accepted: a page's rows are read and written in memory, so
 * 32 pages of 20,000 rows at once stall the event loop for a second (bench/README).
 */
export const PAGE_WEIGHT_ROWS = 5_000;

/** Seconds a refused client is told to wait (Retry-After). */
const RETRY_AFTER_SECONDS = 1;

/** Options of {@link useInflightLimit}. */
export interface InflightLimits {
  /** Requests one client may have in flight (INFLIGHT_PER_CLIENT). */
  readonly perClient: number;
  /** Requests the instance may have in flight (INFLIGHT_PER_INSTANCE). */
  readonly perInstance: number;
  /** A response not read by its client for this long is ended, ms (IDLE_WRITE_TIMEOUT_MS; 0: never). */
  readonly idleWriteMs: number;
}

/** Node's response as Yoga passes it in the server context (absent with `yoga.fetch`). */
interface NodeResponse extends WriteProgress {
  once(event: 'close', listener: () => void): unknown;
  destroy(): unknown;
}

/** What the instance has in flight: per client id, and in all. */
export interface InflightCounts {
  readonly total: number;
  of(clientId: string): number;
}

/** The slots a request holds when accepted: 1, and one more per {@link PAGE_WEIGHT_ROWS} rows of a REST page's `limit`. */
export function requestWeight(request: Request): number {
  const url = new URL(request.url);
  if (!url.pathname.startsWith(`${REST_PREFIX}/`)) return 1;
  const limit = url.searchParams.get('limit');
  if (limit === null || !/^\d{1,9}$/.test(limit)) return 1;
  return 1 + Math.floor(Number(limit) / PAGE_WEIGHT_ROWS);
}

function nodeResponse(serverContext: unknown): NodeResponse | undefined {
  const res = (serverContext as { res?: NodeResponse } | undefined)?.res;
  return typeof res?.once === 'function' ? res : undefined;
}

/**
 * Bounds the work in flight: a request holds its client's slot (the access layer's identity: key or
 * address) and one of the instance's from the moment it is accepted until its response has been
 * written or its connection closed; a REST page holds one more slot per {@link PAGE_WEIGHT_ROWS}
 * rows it asks for, and a response that declares a larger body holds slots up to one more per
 * {@link BODY_WEIGHT_BYTES}. A request is accepted while its client and the instance hold fewer
 * slots than their caps (so a page heavier than a cap is still served when nothing else is in
 * flight); past a client's cap the answer is 429, past the instance's 503, both with Retry-After
 * and no work done. A response whose client stops reading for `idleWriteMs` is
 * ended (its connection destroyed), which releases its slots and its buffers. Install it right after
 * the access plugin: probes, answered before, are never refused. Without a Node response
 * (`yoga.fetch`) the slots are released when the response is ready.
 */
export function useInflightLimit(limits: InflightLimits): Plugin & { readonly counts: InflightCounts } {
  const byClient = new Map<string, number>();
  let total = 0;
  const held = new WeakMap<Request, { release(): void; weigh(atLeast: number): void }>();
  const idle = limits.idleWriteMs > 0 ? idleWriteWatch(limits.idleWriteMs) : undefined;
  const take = (id: string, n: number) => {
    byClient.set(id, (byClient.get(id) ?? 0) + n);
    total += n;
  };
  const give = (id: string, n: number) => {
    const left = (byClient.get(id) ?? 0) - n;
    if (left > 0) byClient.set(id, left);
    else byClient.delete(id);
    total -= n;
  };
  return {
    counts: {
      get total() {
        return total;
      },
      of: (id) => byClient.get(id) ?? 0,
    },
    onRequest({ request, serverContext, endResponse }) {
      const id = accessOf(request)?.client.id ?? 'unknown';
      const retry = { 'retry-after': String(RETRY_AFTER_SECONDS) };
      if ((byClient.get(id) ?? 0) >= limits.perClient) {
        return endResponse(
          json({ detail: `Too many requests in flight from this client (at most ${limits.perClient})` }, 429, retry),
        );
      }
      if (total >= limits.perInstance) {
        return endResponse(json({ detail: 'The server is busy; retry shortly' }, 503, retry));
      }
      let slots = requestWeight(request);
      take(id, slots);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        give(id, slots);
      };
      const weigh = (atLeast: number) => {
        const extra = atLeast - slots;
        if (released || extra <= 0) return;
        slots += extra;
        take(id, extra);
      };
      held.set(request, { release, weigh });
      nodeResponse(serverContext)?.once('close', release);
    },
    onResponse({ request, response, serverContext }) {
      const slots = held.get(request);
      if (!slots) return;
      const res = nodeResponse(serverContext);
      // Subscriptions (SSE) are bounded by SUBSCRIPTIONS_PER_CLIENT, not by the slots of a request.
      if (!res || (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return slots.release();
      slots.weigh(1 + Math.floor(Number(response.headers.get('content-length') ?? 0) / BODY_WEIGHT_BYTES));
      if (idle && !res.writableFinished) idle.watch(res, () => res.destroy());
    },
  };
}
