/**
 * Dashboard tabs of one browser share one set of live streams (the server allows a few per client):
 * the tab holding the lock opens them and relays changes to the others; a refusal for the limit says so.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { followLive, type Live, type LiveKind } from '../../src/dashboard/live.js';

/** A Web Locks stand-in: one holder per name, the others queued in order. */
function fakeLocks() {
  const queues = new Map<string, (() => void)[]>();
  const held = new Set<string>();
  return {
    request(name: string, opts: { signal?: AbortSignal }, fn: () => Promise<void> | void): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const run = () => {
          if (opts.signal?.aborted) return (next(), reject(new Error('aborted')));
          held.add(name);
          Promise.resolve(fn()).finally(() => (next(), resolve()));
        };
        const next = () => {
          held.delete(name);
          queues.get(name)?.shift()?.();
        };
        if (held.has(name)) queues.set(name, [...(queues.get(name) ?? []), run]);
        else run();
      });
    },
  };
}

const encoder = new TextEncoder();
const opened: ReadableStreamDefaultController<Uint8Array>[] = [];
let refuse = false;

/** Answers every subscription with an open SSE stream (kept in `opened`), or a SUBSCRIPTION_LIMIT refusal. */
async function fakeFetch(): Promise<Response> {
  if (refuse)
    return Response.json(
      { errors: [{ message: 'Too many open subscriptions', extensions: { code: 'SUBSCRIPTION_LIMIT' } }] },
      { status: 400 },
    );
  const body = new ReadableStream<Uint8Array>({ start: (c) => void opened.push(c) });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const settle = (ms = 50) => new Promise((r) => setTimeout(r, ms));
/** Waits until `check` passes (a loaded machine delays the tabs' hand-overs), at most 10 s. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });
const indicator = () => ({ dataset: {} as Record<string, string>, textContent: '' }) as unknown as HTMLElement;

beforeAll(() => {
  Object.assign(globalThis, {
    window: { fetch: fakeFetch, setTimeout, clearTimeout },
    document: { hidden: false, addEventListener() {}, removeEventListener() {} },
    localStorage: { getItem: () => null },
  });
  Object.defineProperty(globalThis.navigator, 'locks', { value: fakeLocks(), configurable: true });
});
afterAll(() => {
  Object.defineProperty(globalThis.navigator, 'locks', { value: undefined, configurable: true });
});

describe('live updates shared by the tabs of a browser', () => {
  it('opens two streams for three tabs, relays changes to every tab, and moves the streams when their tab closes', async () => {
    const seen: Set<LiveKind>[][] = [[], [], []];
    const indicators = [indicator(), indicator(), indicator()];
    const tabs: Live[] = indicators.map((el, i) => followLive(el, (kinds) => seen[i]!.push(kinds)));
    await until(() => expect(indicators.map((el) => el.dataset.live)).toEqual(['on', 'on', 'on']));
    expect(opened).toHaveLength(2);
    expect(indicators[2]!.textContent).toBe('Live updates on (shared with another tab)');
    opened[0]!.enqueue(encoder.encode('event: next\ndata: {"data":{"pricesPublished":{"zones":["ES"]}}}\n\n'));
    await until(() =>
      expect(seen.map((calls) => calls.map((kinds) => [...kinds]))).toEqual([[['prices']], [['prices']], [['prices']]]),
    );
    tabs[0]!.stop();
    await until(() => expect(opened).toHaveLength(4));
    await until(() => expect(indicators[1]!.textContent).toBe('Live updates on'));
    expect(indicators[1]!.dataset.live).toBe('on');
    for (const tab of tabs.slice(1)) tab.stop();
    await settle();
    expect(opened).toHaveLength(4);
  });

  it('says why when the server refuses a stream for the per-client limit', async () => {
    refuse = true;
    const el = indicator();
    const tab = followLive(el, () => {});
    await until(() => expect(el.dataset.live).toBe('off'));
    expect(el.textContent).toMatch(
      /^Live updates off: too many live streams from this address \(SUBSCRIPTIONS_PER_CLIENT\)/,
    );
    tab.stop();
  });
});
