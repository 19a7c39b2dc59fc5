/**
 * Live updates: the dashboard subscribes to the server's data events (GraphQL subscriptions over
 * Server-Sent Events, one stream per event) and reloads its panels when data is published.
 * The streams are read with fetch (fetch-event-source) rather than EventSource, which cannot send
 * the API key header. The indicator shows whether the streams are open and when the last event
 * arrived (UTC).
 */
import { type EventSourceMessage, fetchEventSource } from '@microsoft/fetch-event-source';
import { documentId } from './api.js';
import { keyHeaders } from './api-key.js';
import { FlowsUpdatedSubscription, PricesPublishedSubscription } from './queries.js';

/** Wait after an event before reloading, ms: an ingestion commits windows in bursts. */
const SETTLE_MS = 300;

const SUBSCRIPTIONS = {
  prices: documentId(PricesPublishedSubscription),
  flows: documentId(FlowsUpdatedSubscription),
} as const;

/** What changed, as the dashboard's panels see it. */
export type LiveKind = keyof typeof SUBSCRIPTIONS;

/** A stream the server refused (4xx/5xx at open): not retried. */
class Refused extends Error {}

/** Running live updates. */
export interface Live {
  stop(): void;
}

/** The URL of a persisted subscription (by its document id) sent as a GET. */
export function subscriptionUrl(id: string, endpoint = '/graphql'): string {
  return `${endpoint}?${new URLSearchParams({ documentId: id }).toString()}`;
}

/**
 * Opens the streams and calls `onChange` (at most once per {@link SETTLE_MS}) with the kinds that
 * changed. `indicator` gets `data-live` (`connecting`, `on`, `off`) and, per event, `data-events`
 * (a count) and its text.
 */
export function followLive(indicator: HTMLElement, onChange: (kinds: Set<LiveKind>) => void): Live {
  const changed = new Set<LiveKind>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let events = 0;
  const open = new Set<LiveKind>();
  const show = () => {
    if (indicator.dataset.live === 'off') return;
    indicator.dataset.live = open.size === Object.keys(SUBSCRIPTIONS).length ? 'on' : 'connecting';
    if (events === 0)
      indicator.textContent = indicator.dataset.live === 'on' ? 'Live updates on' : 'Live updates: connecting…';
  };
  const stopOff = (message: string) => {
    indicator.dataset.live = 'off';
    indicator.textContent = `Live updates off: ${message}`;
  };
  const onEvent = (kind: LiveKind, close: () => void) => (message: EventSourceMessage) => {
    if (message.event !== 'next') return;
    const payload = JSON.parse(message.data) as { errors?: { message: string }[] };
    if (payload.errors?.length) {
      close();
      open.delete(kind);
      stopOff(payload.errors[0]?.message ?? 'refused');
      return;
    }
    events++;
    indicator.dataset.events = String(events);
    indicator.textContent = `Live: ${kind} updated at ${new Date().toISOString().slice(11, 19)} UTC`;
    changed.add(kind);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const kinds = new Set(changed);
      changed.clear();
      onChange(kinds);
    }, SETTLE_MS);
  };
  const sources = (Object.keys(SUBSCRIPTIONS) as LiveKind[]).map((kind) => {
    const controller = new AbortController();
    const close = () => controller.abort();
    void fetchEventSource(subscriptionUrl(SUBSCRIPTIONS[kind]), {
      headers: keyHeaders(),
      signal: controller.signal,
      openWhenHidden: true,
      onopen: async (res) => {
        if (!res.ok) throw new Refused(`HTTP ${res.status}`);
        open.add(kind);
        show();
      },
      onmessage: onEvent(kind, close),
      onclose: () => {
        open.delete(kind);
        show();
      },
      onerror: (err: unknown) => {
        open.delete(kind);
        if (err instanceof Refused) {
          stopOff(err.message);
          throw err;
        }
        show();
      },
    }).catch(() => undefined);
    return { close };
  });
  return {
    stop() {
      clearTimeout(timer);
      for (const s of sources) s.close();
      open.clear();
      indicator.dataset.live = 'off';
    },
  };
}
