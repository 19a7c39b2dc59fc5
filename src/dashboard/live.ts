/**
 * Live updates: the dashboard subscribes to the server's data events (GraphQL subscriptions over
 * Server-Sent Events, one stream per event) and reloads its panels when data is published.
 * The streams are read with fetch (fetch-event-source) rather than EventSource, which cannot send
 * the API key header. The indicator shows whether the streams are open and when the last event
 * arrived (UTC).
 *
 * The server allows a few open streams per client (SUBSCRIPTIONS_PER_CLIENT, default 5) and each tab
 * needs two, so the tabs of one browser share them: the tab holding the Web Lock {@link CHANNEL}
 * opens the streams and relays changes and its indicator over a BroadcastChannel to the others;
 * when it closes, another tab takes the lock and opens them. A refusal for that limit says so.
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

/** Name of the Web Lock and BroadcastChannel through which the tabs share one set of streams. */
const CHANNEL = 'emk-live';

/** Messages between the tabs: changes and the leader's indicator, and a new tab asking for it. */
type TabMessage =
  | { readonly type: 'change'; readonly kinds: LiveKind[] }
  | { readonly type: 'indicator'; readonly live: string; readonly text: string }
  | { readonly type: 'hello' };

/** Why the server refused a stream, from its GraphQL error body when it has one. */
async function refusal(res: Response): Promise<Refused> {
  const body = (await res.json().catch(() => null)) as { errors?: { extensions?: { code?: string } }[] } | null;
  const code = body?.errors?.[0]?.extensions?.code;
  if (code === 'SUBSCRIPTION_LIMIT')
    return new Refused(
      'too many live streams from this address (SUBSCRIPTIONS_PER_CLIENT); close other dashboard windows or browsers, then reload',
    );
  return new Refused(code ? `HTTP ${res.status} ${code}` : `HTTP ${res.status}`);
}

/** Running live updates. */
export interface Live {
  stop(): void;
}

/** The URL of a persisted subscription (by its document id) sent as a GET. */
export function subscriptionUrl(id: string, endpoint = '/graphql'): string {
  return `${endpoint}?${new URLSearchParams({ documentId: id }).toString()}`;
}

/**
 * Follows the live updates, sharing one set of streams among the tabs when the browser can (Web
 * Locks and BroadcastChannel), else opening them here: calls `onChange` (at most once per
 * {@link SETTLE_MS}) with the kinds that changed. `indicator` gets `data-live` (`connecting`, `on`,
 * `off`) and its text; in the tab holding the streams, per event, `data-events` (a count).
 */
export function followLive(indicator: HTMLElement, onChange: (kinds: Set<LiveKind>) => void): Live {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof BroadcastChannel === 'undefined') return openStreams(indicator, onChange);
  const channel = new BroadcastChannel(CHANNEL);
  const post = (message: TabMessage) => channel.postMessage(message);
  const stopped = new AbortController();
  let own: Live | undefined;
  let release: (() => void) | undefined;
  const relay = () =>
    post({ type: 'indicator', live: indicator.dataset.live ?? '', text: indicator.textContent ?? '' });
  channel.onmessage = (e: MessageEvent<TabMessage>) => {
    const m = e.data;
    if (own) {
      if (m.type === 'hello') relay();
      return;
    }
    if (m.type === 'change') onChange(new Set(m.kinds));
    else if (m.type === 'indicator') {
      indicator.dataset.live = m.live;
      indicator.textContent = `${m.text} (shared with another tab)`;
    }
  };
  indicator.dataset.live = 'connecting';
  indicator.textContent = 'Live updates: joining the stream of another tab…';
  post({ type: 'hello' });
  locks
    .request(CHANNEL, { signal: stopped.signal }, () => {
      if (stopped.signal.aborted) return;
      own = openStreams(
        indicator,
        (kinds) => {
          onChange(kinds);
          post({ type: 'change', kinds: [...kinds] });
        },
        relay,
      );
      return new Promise<void>((resolve) => (release = resolve));
    })
    .catch(() => undefined);
  return {
    stop() {
      stopped.abort();
      own?.stop();
      release?.();
      channel.close();
    },
  };
}

/**
 * Opens the streams in this tab and calls `onChange` (at most once per {@link SETTLE_MS}) with the
 * kinds that changed; `onIndicator` is told after each change of `indicator`.
 */
function openStreams(
  indicator: HTMLElement,
  onChange: (kinds: Set<LiveKind>) => void,
  onIndicator: () => void = () => {},
): Live {
  const changed = new Set<LiveKind>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let events = 0;
  const open = new Set<LiveKind>();
  const show = () => {
    if (indicator.dataset.live === 'off') return;
    indicator.dataset.live = open.size === Object.keys(SUBSCRIPTIONS).length ? 'on' : 'connecting';
    if (events === 0)
      indicator.textContent = indicator.dataset.live === 'on' ? 'Live updates on' : 'Live updates: connecting…';
    onIndicator();
  };
  const stopOff = (message: string) => {
    indicator.dataset.live = 'off';
    indicator.textContent = `Live updates off: ${message}`;
    onIndicator();
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
    onIndicator();
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
        if (!res.ok) throw await refusal(res);
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
