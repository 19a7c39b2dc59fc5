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
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        onEnd?.();
      };
      const stream = new Repeater<DataEvent>(async (push, stop) => {
        open++;
        const source = pubSub.subscribe('data')[Symbol.asyncIterator]();
        const stopped = Promise.race([stop, closed]).then(() => 'end' as const);
        try {
          while (!isClosed) {
            const next = await Promise.race([source.next(), stopped]);
            if (next === 'end' || next.done) break;
            if (keep(next.value)) await push(next.value);
          }
        } finally {
          open--;
          stop();
          await source.return?.();
          end();
        }
      });
      return endedOnReturn(stream, end);
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

/**
 * The stream, with `end` called when it is returned: a Repeater returned before its first `next`
 * never runs its executor (a subscription whose result was never sent, e.g. a 406), so its
 * `finally` would not give the slot back.
 */
function endedOnReturn(stream: Repeater<DataEvent>, end: () => void): Repeater<DataEvent> {
  const returnOf = stream.return.bind(stream);
  stream.return = async (value) => {
    try {
      return await returnOf(value);
    } finally {
      end();
    }
  };
  return stream;
}
