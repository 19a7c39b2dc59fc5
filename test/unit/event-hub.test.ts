import { describe, expect, it } from 'vitest';
import type { DataEvent } from '../../src/domain/data-events.js';
import { createEventHub, fellBehind } from '../../src/events/hub.js';

const DAY = 86_400_000;
const prices = (zone: string, day = 0): DataEvent => ({
  kind: 'prices',
  item: 'prices',
  zones: [zone],
  borders: [],
  from: new Date(Date.UTC(2025, 9, 1) + day * DAY),
  to: new Date(Date.UTC(2025, 9, 2) + day * DAY),
});
const tick = () => new Promise((r) => setImmediate(r));

describe('the event hub with a consumer that stops reading', () => {
  it('neither throws nor queues more than its bound while 16,000 events are published, and the other streams get theirs', async () => {
    const hub = createEventHub({ maxPending: 64 });
    const paused = hub.subscribe(() => true)[Symbol.asyncIterator]();
    const firstRead = paused.next();
    const active = hub.subscribe((e) => e.zones.includes('ES'))[Symbol.asyncIterator]();
    const received: unknown[] = [];
    const reading = (async () => {
      for (let n = 0; n < 16; n++) received.push((await active.next()).value);
    })();
    for (let i = 0; i < 16_000; i++) {
      expect(() => hub.publish(i % 1_000 === 999 ? prices('ES', i) : prices(`Z${i}`))).not.toThrow();
      expect(hub.pendingEvents).toBeLessThanOrEqual(64 + 1);
      if (i % 100 === 0) await tick();
    }
    await reading;
    expect(received).toHaveLength(16);
    expect((await firstRead).value).toEqual(prices('Z0'));
    hub.close();
  });

  it('coalesces the unread events of one zone and item into one whose range covers them all', async () => {
    const hub = createEventHub({ maxPending: 8 });
    const stream = hub.subscribe(() => true)[Symbol.asyncIterator]();
    for (let day = 0; day < 100; day++) hub.publish(prices('ES', day));
    hub.publish(prices('FR', 5));
    expect(hub.pendingEvents).toBe(2);
    expect((await stream.next()).value).toEqual({ ...prices('ES'), to: prices('ES', 99).to });
    expect((await stream.next()).value).toEqual(prices('FR', 5));
    hub.close();
    expect((await stream.next()).done).toBe(true);
  });

  it('ends a stream that falls more than its bound of distinct events behind with a final notice, freeing its slot and memory at once', async () => {
    const hub = createEventHub({ maxPending: 8 });
    let ended = 0;
    const slow = hub
      .subscribe(
        () => true,
        () => ended++,
      )
      [Symbol.asyncIterator]();
    const other = hub.subscribe((e) => e.zones.includes('ES'))[Symbol.asyncIterator]();
    for (let i = 0; i < 9; i++) hub.publish(prices(`Z${i}`));
    expect(ended).toBe(1);
    expect(hub.openStreams).toBe(1);
    expect(hub.pendingEvents).toBe(0);
    hub.publish(prices('ES'));
    const notice = (await slow.next()).value;
    expect(fellBehind(notice)).toEqual({ limit: 8 });
    expect((await slow.next()).done).toBe(true);
    expect((await other.next()).value).toEqual(prices('ES'));
    expect(ended).toBe(1);
    hub.close();
  });

  it('ends every stream when it closes, and a stream opened after at once', async () => {
    const hub = createEventHub();
    let ended = 0;
    const open = hub
      .subscribe(
        () => true,
        () => ended++,
      )
      [Symbol.asyncIterator]();
    const waiting = open.next();
    hub.close();
    expect((await waiting).done).toBe(true);
    const late = hub
      .subscribe(
        () => true,
        () => ended++,
      )
      [Symbol.asyncIterator]();
    expect((await late.next()).done).toBe(true);
    expect(ended).toBe(2);
    expect(hub.openStreams).toBe(0);
  });

  it('gives the slot of a stream returned before its first read back once', async () => {
    const hub = createEventHub();
    let ended = 0;
    const stream = hub
      .subscribe(
        () => true,
        () => ended++,
      )
      [Symbol.asyncIterator]();
    await stream.return?.();
    await stream.return?.();
    hub.close();
    expect(ended).toBe(1);
  });
});
