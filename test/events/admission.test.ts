/**
 * Admission and end of subscription streams: a start spends from the client's rate-limit bucket,
 * a client has at most SUBSCRIPTIONS_PER_CLIENT open streams, and shutdown completes every stream.
 */
import { afterEach, describe, expect } from 'vitest';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { appOver } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { listen, type SseStream, subscribe } from './sse.js';

const PRICES = 'subscription { pricesPublished { zones } }';

let t: Awaited<ReturnType<typeof appOver>> | undefined;
let server: Awaited<ReturnType<typeof listen>> | undefined;
afterEach(async () => {
  await server?.close();
  await t?.close();
  t = server = undefined;
});

/** Builds the app over `db` on a loopback port; @returns a function opening one stream of the test client. */
async function open(
  db: Database,
  config: Partial<Config>,
): Promise<(headers?: Record<string, string>) => Promise<SseStream>> {
  t = await appOver(db, { config });
  const s = (server = await listen(t.app.yoga));
  return (headers = {}) => subscribe(s.fetcher, PRICES, {}, headers);
}

const code = async (s: SseStream) => {
  const first = await s.next(2_000);
  return first === 'complete' ? 'complete' : first.errors?.[0]?.extensions?.code;
};

describe('subscription admission', () => {
  it.override({ backend: 'pglite', seed: 'empty' });

  it('refuses a client its next stream beyond SUBSCRIPTIONS_PER_CLIENT with SUBSCRIPTION_LIMIT, and admits it again once one ends', async ({
    db,
  }) => {
    const start = await open(db, { SUBSCRIPTIONS_PER_CLIENT: 2 });
    const [a, b] = [await start(), await start()];
    const third = await start();
    expect(await code(third)).toBe('SUBSCRIPTION_LIMIT');
    a.close();
    await new Promise((r) => setTimeout(r, 100));
    const again = await start();
    await expect(again.next(300)).rejects.toThrow(/no event/);
    b.close();
    again.close();
  });

  it.for(['application/graphql-response+json', 'multipart/mixed'])(
    'gives back the slot of a subscription refused with 406 for Accept: %s',
    async (accept, { db }) => {
      const start = await open(db, { SUBSCRIPTIONS_PER_CLIENT: 1 });
      for (let i = 0; i < 3; i++) {
        const res = await server!.fetcher('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept },
          body: JSON.stringify({ query: PRICES }),
        });
        await res.arrayBuffer();
        expect(res.status).toBe(406);
      }
      await new Promise((r) => setTimeout(r, 50));
      const admitted = await start();
      await expect(admitted.next(300)).rejects.toThrow(/no event/);
      admitted.close();
    },
  );

  it("spends one token of the client's bucket per start and refuses with RATE_LIMITED when it is empty", async ({
    db,
  }) => {
    const start = await open(db, {
      RATE_LIMIT_CAPACITY: 2,
      RATE_LIMIT_REFILL_PER_SECOND: 0.001,
      SUBSCRIPTIONS_PER_CLIENT: 10,
    });
    const first = await start();
    expect(first.response.headers.get('ratelimit-remaining')).toBe('1');
    const second = await start();
    expect(second.response.headers.get('ratelimit-remaining')).toBe('0');
    const third = await start();
    expect(await code(third)).toBe('RATE_LIMITED');
    first.close();
    second.close();
  });
});

describe('shutdown', () => {
  it.override({ backend: 'pglite', seed: 'empty' });

  it('completes every open stream when the app ends its streams', async ({ db }) => {
    const start = await open(db, {});
    const streams = [await start(), await start()];
    await t!.app.endStreams();
    for (const s of streams) expect(await s.next(1_000)).toBe('complete');
  });
});
