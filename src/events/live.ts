/**
 * Live data events of one server instance: the database listener feeding the hub that GraphQL
 * subscriptions read, and the gate that admits their streams.
 */
import type { Database } from '../db/client.js';
import type { Catalogue } from '../domain/catalogue.js';
import type { Logger } from '../logger.js';
import type { TokenBucketLimiter } from '../security/token-bucket.js';
import { createSubscriptionGate, type SubscriptionGate } from './gate.js';
import { createEventHub, type EventHub } from './hub.js';
import type { DataEvent } from '../domain/data-events.js';
import { listenForDataEvents, type ListenerState } from '../db/listener.js';
import type { DataVersion } from './version.js';

/** What the subscription resolvers read from the GraphQL context. */
export interface LiveEvents {
  readonly hub: EventHub;
  readonly gate: SubscriptionGate;
}

/** Running live events: close ends every stream and stops listening. */
export interface LiveEventsService extends LiveEvents {
  /** The data events listener's state (`/readyz`). */
  listenerState(): ListenerState;
  close(): Promise<void>;
}

/** Options of {@link startLiveEvents}. */
export interface LiveEventsOptions {
  readonly db: Database;
  readonly limiter: TokenBucketLimiter;
  /** Open streams allowed per client (SUBSCRIPTIONS_PER_CLIENT). */
  readonly perClient: number;
  readonly logger?: Logger;
  /** Bumped by every data event and every reconnection of the listener. */
  readonly version?: DataVersion;
  /** Told of each data event once this instance's caches dropped it (the shared cache's purge: see instancePurger). */
  readonly purge?: (event: DataEvent) => void;
  /** The catalogue the events' areas are checked against (the served one). */
  readonly catalogue?: Catalogue;
  /** Told how many areas of a notification were not in the catalogue (dropped). */
  readonly onUnknownAreas?: (count: number) => void;
}

/** Starts listening for the schema's data events. */
export async function startLiveEvents(opts: LiveEventsOptions): Promise<LiveEventsService> {
  const hub = createEventHub();
  const onEvent = (e: DataEvent) => {
    opts.version?.bump();
    opts.purge?.(e);
    hub.publish(e);
  };
  const listener = await listenForDataEvents(opts.db, onEvent, {
    ...(opts.logger ? { logger: opts.logger } : {}),
    onReconnect: () => opts.version?.bump(),
    ...(opts.catalogue ? { catalogue: opts.catalogue } : {}),
    ...(opts.onUnknownAreas ? { onUnknownAreas: opts.onUnknownAreas } : {}),
  });
  let closing: Promise<void> | undefined;
  return {
    hub,
    gate: createSubscriptionGate(opts.limiter, opts.perClient),
    listenerState: () => listener.state(),
    close() {
      hub.close();
      return (closing ??= listener.close());
    },
  };
}
