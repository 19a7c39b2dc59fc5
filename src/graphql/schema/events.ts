import { z } from 'zod';
import { BORDERS, namedOn, ZONES } from '../../contract/params.js';
import type { DataEvent } from '../../domain/data-events.js';
import type { HubItem } from '../../events/hub.js';
import { AppError } from '../../errors.js';
import { ARG_LIMITS } from '../../limits.js';
import { builder, type GraphQLContext } from '../builder.js';

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

/** Zone codes or border keys to watch: the bounds of every code list argument (limits.ts). */
const codes = z.array(z.string().min(1).max(ARG_LIMITS.codeChars)).max(ARG_LIMITS.listEntries);

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

builder.subscriptionType({
  description:
    "Live data events (Server-Sent Events: send the operation with `Accept: text/event-stream`). Starting a subscription spends one token from the caller's rate-limit bucket and takes one of the caller's open-stream slots (SUBSCRIPTIONS_PER_CLIENT; beyond it: SUBSCRIPTION_LIMIT). Events are sent when an ingestion window commits, on every server instance.",
  fields: (t) => ({
    pricesPublished: t.field({
      type: PricesPublished,
      description: 'Emits when day-ahead prices of one of `zones` (all zones when omitted) are stored.',
      args: {
        zones: t.arg.stringList({
          required: false,
          description: 'Zone codes or EICs to watch; all when omitted.',
          validate: codes,
        }),
      },
      subscribe: (_root, args, ctx) =>
        namedOn('graphql', [ZONES], () => {
          const zones = args.zones ? new Set(ctx.deps.catalogue.resolveZones(args.zones)) : null;
          return stream(ctx, (e) => e.kind === 'prices' && (!zones || e.zones.some((z) => zones.has(z))));
        }),
      resolve: eventOf,
    }),
    flowsUpdated: t.field({
      type: FlowsUpdated,
      description: 'Emits when data of one of `borders` (all borders when omitted) is stored and reclassified.',
      args: {
        borders: t.arg.stringList({
          required: false,
          description: 'Borders A->B (either orientation) to watch; all when omitted.',
          validate: codes,
        }),
      },
      subscribe: (_root, args, ctx) =>
        namedOn('graphql', [BORDERS], () => {
          const borders = args.borders
            ? new Set(ctx.deps.catalogue.resolveBorders(args.borders).map((b) => b.key))
            : null;
          return stream(ctx, (e) => e.kind === 'flows' && (!borders || e.borders.some((b) => borders.has(b))));
        }),
      resolve: eventOf,
    }),
  }),
});
