/**
 * The in-process fan-out of data events to GraphQL subscriptions, fed by the database listener.
 *
 * The slow-consumer rule: each stream holds its unread events in a queue bounded by
 * `maxPending` ({@link SUBSCRIPTION_QUEUE}). An event for the same kind, item and zones (or
 * borders) as one still unread is merged into it, its range widened to cover both, so a client that
 * falls behind a burst of windows of one zone gets one event for them. A stream that would hold more
 * distinct unread events is ended: its queue is dropped and its slot given back at once, it yields
 * one last item ({@link fellBehind}) and then completes. Other streams, and the publisher, never wait
 * for a stream.
 */
import { SUBSCRIPTION_QUEUE } from '../limits.js';
import type { DataEvent } from '../domain/data-events.js';

/** The last item of a stream that fell behind: how many distinct unread events it may hold. */
export interface FellBehind {
  readonly limit: number;
}

/** What a stream yields: data events, and, last, the notice of a stream that fell behind. */
export type HubItem = DataEvent | { readonly fellBehind: FellBehind };

/** The notice of an item, or undefined when it is a data event. */
export function fellBehind(item: HubItem | undefined): FellBehind | undefined {
  return item && 'fellBehind' in item ? item.fellBehind : undefined;
}

/** Subscribers of data events. */
export interface EventHub {
  /** Hands an event to every open stream (never waits, never throws for a stream). */
  publish(event: DataEvent): void;
  /**
   * A stream of the events that pass `keep`; it ends when the client leaves, it falls behind or
   * the hub closes, and then calls `onEnd` once.
   */
  subscribe(keep: (e: DataEvent) => boolean, onEnd?: () => void): AsyncIterableIterator<HubItem>;
  /** Streams open now. */
  readonly openStreams: number;
  /** Unread events held by all streams. */
  readonly pendingEvents: number;
  /** Ends every open stream (and refuses new ones: they end at once). */
  close(): void;
}

/** Options of {@link createEventHub}. */
export interface EventHubOptions {
  /** Distinct unread events a stream may hold. Default {@link SUBSCRIPTION_QUEUE}.maxPending. */
  readonly maxPending?: number;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** The coalescing key of an event: its kind, item and areas. */
const keyOf = (e: DataEvent) => `${e.kind}\n${e.item}\n${e.zones.join(',')}\n${e.borders.join(',')}`;

/** `a` with its range widened to cover `b`'s. */
const widened = (a: DataEvent, b: DataEvent): DataEvent => ({
  ...a,
  from: a.from <= b.from ? a.from : b.from,
  to: a.to >= b.to ? a.to : b.to,
});

/** One subscriber's stream: a bounded, coalescing queue read as an async iterator. */
class HubStream implements AsyncIterableIterator<HubItem> {
  private readonly pending = new Map<string, DataEvent>();
  private waiting: ((result: IteratorResult<HubItem, undefined>) => void) | undefined;
  private state: 'open' | 'behind' | 'ended' = 'open';

  constructor(
    private readonly keep: (e: DataEvent) => boolean,
    private readonly maxPending: number,
    private readonly onEnd: () => void,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  offer(event: DataEvent): void {
    if (this.state !== 'open' || !this.keep(event)) return;
    if (this.waiting) return this.take({ done: false, value: event });
    const key = keyOf(event);
    const unread = this.pending.get(key);
    if (unread) this.pending.set(key, widened(unread, event));
    else if (this.pending.size < this.maxPending) this.pending.set(key, event);
    else {
      this.pending.clear();
      this.state = 'behind';
      this.onEnd();
    }
  }

  next(): Promise<IteratorResult<HubItem, undefined>> {
    const [first] = this.pending;
    if (first) {
      this.pending.delete(first[0]);
      return Promise.resolve({ done: false, value: first[1] });
    }
    if (this.state === 'behind') {
      this.state = 'ended';
      return Promise.resolve({ done: false, value: { fellBehind: { limit: this.maxPending } } });
    }
    if (this.state === 'ended') return Promise.resolve(DONE);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The client left. */
  return(): Promise<IteratorResult<HubItem, undefined>> {
    this.end();
    return Promise.resolve(DONE);
  }

  /** Ends the stream: nothing more is read, a pending read completes. */
  end(): void {
    const wasOpen = this.state === 'open';
    this.state = 'ended';
    this.pending.clear();
    this.take(DONE);
    if (wasOpen) this.onEnd();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private take(result: IteratorResult<HubItem, undefined>): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(result);
  }
}

/** Builds an empty hub. */
export function createEventHub(opts: EventHubOptions = {}): EventHub {
  const maxPending = opts.maxPending ?? SUBSCRIPTION_QUEUE.maxPending;
  const streams = new Set<HubStream>();
  let closed = false;
  return {
    publish(event) {
      for (const stream of streams) stream.offer(event);
    },
    subscribe(keep, onEnd) {
      const stream: HubStream = new HubStream(keep, maxPending, () => {
        streams.delete(stream);
        onEnd?.();
      });
      streams.add(stream);
      if (closed) stream.end();
      return stream;
    },
    get openStreams() {
      return streams.size;
    },
    get pendingEvents() {
      let n = 0;
      for (const stream of streams) n += stream.size;
      return n;
    },
    close() {
      closed = true;
      for (const stream of [...streams]) stream.end();
    },
  };
}
