import type { DataEvent } from '../../domain/data-events.js';
import type { HubItem } from '../../events/hub.js';
import { AppError } from '../../errors.js';
import { SUBSCRIPTIONS, type SubscriptionOperation } from '../../operations/subscriptions.js';
import { builder, type GraphQLContext } from '../builder.js';
import { graphqlArgs, withArgs } from './args.js';

const PricesPublished = builder.objectRef<DataEvent>('PricesPublished').implement({
  description: 'Day-ahead prices of zones were stored (one committed ingestion window).',
  fields: (t) => ({
    zones: t.stringList({ description: 'Zone codes whose prices changed.', resolve: (e) => [...e.zones] }),
    from: t.field({
      type: 'DateTime',
      description: 'Start of the changed range (UTC, inclusive).',
      resolve: (e) => e.from,
    }),
    to: t.field({ type: 'DateTime', description: 'End of the changed range (UTC, exclusive).', resolve: (e) => e.to }),
  }),
});

const FlowsUpdated = builder.objectRef<DataEvent>('FlowsUpdated').implement({
  description:
    'Flows, scheduled exchanges, capacities or outages of borders were stored, and their border-hours reclassified (one committed ingestion window).',
  fields: (t) => ({
    borders: t.stringList({
      description: 'Border keys A->B (stored orientation) that changed.',
      resolve: (e) => [...e.borders],
    }),
    item: t.exposeString('item', { description: 'What was loaded: flows, schedules, ntc or outages.' }),
    from: t.field({
      type: 'DateTime',
      description: 'Start of the changed range (UTC, inclusive).',
      resolve: (e) => e.from,
    }),
    to: t.field({ type: 'DateTime', description: 'End of the changed range (UTC, exclusive).', resolve: (e) => e.to }),
  }),
});

async function stream(ctx: GraphQLContext, keep: (e: DataEvent) => boolean): Promise<AsyncIterable<HubItem>> {
  if (!ctx.live) throw new Error('subscriptions: live events are not running');
  const release = await ctx.live.gate.admit(ctx);
  return ctx.live.hub.subscribe(keep, release);
}

/**
 * The event of a stream item; the last item of a stream that fell behind is its SLOW_CONSUMER error.
 * @throws AppError SLOW_CONSUMER
 */
function eventOf(item: HubItem): DataEvent {
  if (!('fellBehind' in item)) return item;
  const { limit } = item.fellBehind;
  throw new AppError(
    'SLOW_CONSUMER',
    `This stream fell behind: more than ${limit} events were waiting to be read, so it was closed. Subscribe again, and re-read the data you need.`,
    { limit },
  );
}

/** The type of each kind of data event. */
const EVENT_TYPES = { prices: PricesPublished, flows: FlowsUpdated } as const;

builder.subscriptionType({
  description:
    "Live data events (Server-Sent Events: send the operation with `Accept: text/event-stream`). Starting a subscription spends one token from the caller's rate-limit bucket and takes one of the caller's open-stream slots (SUBSCRIPTIONS_PER_CLIENT; beyond it: SUBSCRIPTION_LIMIT). Events are sent when an ingestion window commits, on every server instance.",
});

/** Adds the subscription field of each declared stream: its arguments from its parameters, its events kept by `watch`. */
export function addSubscriptionFields(ops: readonly SubscriptionOperation<any>[]): void {
  builder.subscriptionFields((t) =>
    Object.fromEntries(
      ops.map((op) => [
        op.field,
        t.field({
          type: EVENT_TYPES[op.event],
          description: op.description,
          args: graphqlArgs(t.arg, op.params),
          subscribe: (_root, args, ctx) =>
            withArgs(op.params, args, (input) => {
              const watched = op.watch(ctx.deps, input);
              return stream(ctx, (e) => e.kind === op.event && watched(e));
            }),
          resolve: eventOf,
        }),
      ]),
    ),
  );
}

addSubscriptionFields(SUBSCRIPTIONS);
