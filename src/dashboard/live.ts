/**
 * Live updates: the dashboard subscribes to the server's data events (GraphQL subscriptions over
 * Server-Sent Events, one EventSource per event) and reloads its panels when data is published.
 * The indicator shows whether the streams are open and when the last event arrived (UTC).
 */
import { FlowsUpdatedSubscription, PricesPublishedSubscription } from './queries.js';

/** Wait after an event before reloading, ms: an ingestion commits windows in bursts. */
const SETTLE_MS = 300;

const SUBSCRIPTIONS = {
  prices: PricesPublishedSubscription.toString(),
  flows: FlowsUpdatedSubscription.toString(),
} as const;

/** What changed, as the dashboard's panels see it. */
export type LiveKind = keyof typeof SUBSCRIPTIONS;

/** Running live updates. */
export interface Live {
  stop(): void;
}

/** The URL of a subscription sent as a GET (what EventSource can send). */
export function subscriptionUrl(query: string, endpoint = '/graphql'): string {
  return `${endpoint}?${new URLSearchParams({ query }).toString()}`;
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
    if (events === 0) indicator.textContent = indicator.dataset.live === 'on' ? 'Live updates on' : 'Live updates: connecting…';
  };
  const sources = (Object.keys(SUBSCRIPTIONS) as LiveKind[]).map((kind) => {
    const source = new EventSource(subscriptionUrl(SUBSCRIPTIONS[kind]));
    source.onopen = () => {
      open.add(kind);
      show();
    };
    source.onerror = () => {
      open.delete(kind);
      show();
    };
    source.addEventListener('next', (e) => {
      const payload = JSON.parse((e as MessageEvent<string>).data) as { errors?: { message: string }[] };
      if (payload.errors?.length) {
        source.close();
        open.delete(kind);
        indicator.dataset.live = 'off';
        indicator.textContent = `Live updates off: ${payload.errors[0]?.message ?? 'refused'}`;
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
    });
    return source;
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
