/**
 * The in-process fan-out of data events to GraphQL subscriptions: Yoga's pub/sub, fed by the
 * database listener, with streams that all end when the hub closes (server shutdown).
 */
import { createPubSub, Repeater } from 'graphql-yoga';
import type { DataEvent } from './data-events.js';

/** Subscribers of data events. */
export interface EventHub {
  /** Hands an event to every open stream. */
  publish(event: DataEvent): void;
  /**
   * A stream of the events that pass `keep`; it ends when the client leaves or the hub closes,
   * and then calls `onEnd` once.
   */
  subscribe(keep: (e: DataEvent) => boolean, onEnd?: () => void): AsyncIterable<DataEvent>;
  /** Streams open now. */
  readonly openStreams: number;
  /** Ends every open stream (and refuses new ones: they end at once). */
  close(): void;
}

/** Builds an empty hub. */
export function createEventHub(): EventHub {
  const pubSub = createPubSub<{ data: [DataEvent] }>();
  let endAll!: () => void;
  const closed = new Promise<void>((resolve) => (endAll = resolve));
  let isClosed = false;
  let open = 0;
  return {
    publish: (event) => pubSub.publish('data', event),
    subscribe(keep, onEnd) {
      return new Repeater<DataEvent>(async (push, stop) => {
        open++;
        const source = pubSub.subscribe('data')[Symbol.asyncIterator]();
        const ended = Promise.race([stop, closed]).then(() => 'end' as const);
        try {
          while (!isClosed) {
            const next = await Promise.race([source.next(), ended]);
            if (next === 'end' || next.done) break;
            if (keep(next.value)) await push(next.value);
          }
        } finally {
          open--;
          stop();
          await source.return?.();
          onEnd?.();
        }
      });
    },
    get openStreams() {
      return open;
    },
    close() {
      isClosed = true;
      endAll();
    },
  };
}
