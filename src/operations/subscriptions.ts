import { BORDERS, type InputOf, type ParamRef, use, ZONES } from '../contract/params.js';
import type { DataEvent, DataEventKind } from '../domain/data-events.js';
import type { ServiceDeps } from '../services/context.js';
import { watchBorders, watchZones } from '../services/live.js';

/**
 * A stream of live data events, declared once: its GraphQL subscription field (graphql/schema/events.ts,
 * Server-Sent Events) takes the declared parameters as arguments, with their names, shapes and input
 * errors, like the query fields of {@link Operation}s. Streams have no REST endpoint, OpenAPI operation
 * or MCP tool: a REST client reads the same stream from /graphql with `Accept: text/event-stream`
 * (README, Live data).
 */
export interface SubscriptionOperation<P extends readonly ParamRef[] = readonly ParamRef[]> {
  /** The subscription field's name (`pricesPublished`). */
  readonly field: string;
  readonly description: string;
  /** The kind of data event the stream carries. */
  readonly event: DataEventKind;
  readonly params: P;
  /**
   * Which events of its kind (`event`) a subscriber with this input receives; resolves its codes at
   * once, so an unknown one is an input error before the stream starts.
   */
  readonly watch: (deps: ServiceDeps, input: InputOf<P>) => (e: DataEvent) => boolean;
}

/** Declares a subscription (the identity, typing `watch`'s input by the parameters). */
export function defineSubscription<const P extends readonly ParamRef[]>(
  op: SubscriptionOperation<P>,
): SubscriptionOperation<P> {
  return op;
}

/** Stored day-ahead prices of watched zones. */
export const pricesPublished = defineSubscription({
  field: 'pricesPublished',
  description: 'Emits when day-ahead prices of one of `zones` (all zones when omitted or empty) are stored.',
  event: 'prices',
  params: [use(ZONES, { graphql: 'Zones to watch; omitted or empty means all zones.' })],
  watch: watchZones,
});

/** Stored and reclassified border data of watched borders. */
export const flowsUpdated = defineSubscription({
  field: 'flowsUpdated',
  description: 'Emits when data of one of `borders` (all borders when omitted or empty) is stored and reclassified.',
  event: 'flows',
  params: [use(BORDERS, { graphql: 'Borders to watch, either orientation; omitted or empty means all borders.' })],
  watch: watchBorders,
});

/** The declared subscriptions, in schema order. */
export const SUBSCRIPTIONS: readonly SubscriptionOperation<any>[] = [flowsUpdated, pricesPublished];
