import type { Plugin } from 'graphql-yoga';
import { accessOf } from './client.js';
import { json } from '../http/errors.js';
import { idleWriteWatch, type WriteProgress } from '../http/idle-write-watch.js';

/** A response body counts one more request against its client for each this many bytes (a declared Content-Length). */
export const BODY_WEIGHT_BYTES = 4 * 1_024 * 1_024;

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

function nodeResponse(serverContext: unknown): NodeResponse | undefined {
  const res = (serverContext as { res?: NodeResponse } | undefined)?.res;
  return typeof res?.once === 'function' ? res : undefined;
}

/**
 * Bounds the work in flight: a request holds its client's slot (the access layer's identity: key or
 * address) and one of the instance's from the moment it is accepted until its response has been
 * written or its connection closed; a response that declares a large body holds one more slot per
 * {@link BODY_WEIGHT_BYTES}. Past a client's cap the answer is 429, past the instance's 503, both
 * with Retry-After and no work done. A response whose client stops reading for `idleWriteMs` is
 * ended (its connection destroyed), which releases its slots and its buffers. Install it right after
 * the access plugin: probes, answered before, are never refused. Without a Node response
 * (`yoga.fetch`) the slots are released when the response is ready.
 */
export function useInflightLimit(limits: InflightLimits): Plugin & { readonly counts: InflightCounts } {
  const byClient = new Map<string, number>();
  let total = 0;
  const held = new WeakMap<Request, { release(): void; weigh(extra: number): void }>();
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
      let slots = 1;
      take(id, 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        give(id, slots);
      };
      const weigh = (extra: number) => {
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
      slots.weigh(Math.floor(Number(response.headers.get('content-length') ?? 0) / BODY_WEIGHT_BYTES));
      if (idle && !res.writableFinished) idle.watch(res, () => res.destroy());
    },
  };
}
