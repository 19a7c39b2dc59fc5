/**
 * The demo's live feed with no ENTSO-E token: a subscriber on the demo database receives the
 * `flowsUpdated` event of the hour just completed within a minute of the feed starting (settable
 * clock: 2025-11-05T12:30Z, the hour [11:00Z, 12:00Z)), and `pricesPublished` for the next CET
 * delivery day (2025-11-06, [2025-11-05T23:00Z, 2025-11-06T23:00Z)) when the clock passes 12:45 CET
 * (11:45Z in November).
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { auctionOf, type DemoLive, startDemoLive } from '../../src/demo/live.js';
import { DEFAULT_THRESHOLDS } from '../../src/domain/classification.js';
import { DEMO_TEST_NOW, TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { type Fetcher, subscribe } from './sse.js';

const FLOWS = 'subscription ($borders: [String!]) { flowsUpdated(borders: $borders) { borders item from to } }';
const PRICES = 'subscription ($zones: [String!]) { pricesPublished(zones: $zones) { zones from to } }';

describe('the auction hour of the demo live feed', () => {
  it('is 12:45 CET in winter and 12:45 CEST in summer, pricing the next local day', () => {
    const winter = auctionOf(Date.parse('2025-11-05T09:00Z'));
    expect([winter.at, winter.from, winter.to].map((ms) => new Date(ms).toISOString())).toEqual([
      '2025-11-05T11:45:00.000Z',
      '2025-11-05T23:00:00.000Z',
      '2025-11-06T23:00:00.000Z',
    ]);
    const summer = auctionOf(Date.parse('2025-07-01T20:00Z'));
    expect([summer.at, summer.from, summer.to].map((ms) => new Date(ms).toISOString())).toEqual([
      '2025-07-01T10:45:00.000Z',
      '2025-07-01T22:00:00.000Z',
      '2025-07-02T22:00:00.000Z',
    ]);
    const dstEve = auctionOf(Date.parse('2026-03-28T12:00Z'));
    expect([dstEve.from, dstEve.to].map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ]);
  });
});

describe.each(TEST_BACKENDS)('the demo live feed on %s', (kind) => {
  let db!: Database;
  let app: App;
  let live: DemoLive | undefined;
  let clock = new Date(DEMO_TEST_NOW.getTime() - 30 * 60_000 + 60 * 60_000);
  const fetcher: Fetcher = async (url, init) => app.yoga.fetch(new URL(url, 'http://test'), init);

  it.override({ backend: kind, seed: 'demo' });
  const block = blockSetup(async () => {
    live?.stop();
    await app?.close();
  });
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      app = await createApp({ config: testConfig(), db });
    }),
  );

  it('delivers the completed hour to a flows subscriber within a minute, then the auction to a prices subscriber', async () => {
    const flows = await subscribe(fetcher, FLOWS, { borders: ['FR->DE_LU'] });
    const prices = await subscribe(fetcher, PRICES, { zones: ['FR'] });
    clock = new Date('2025-11-05T11:40:00Z');
    live = startDemoLive(db, { now: () => clock, intervalMs: 100, thresholds: DEFAULT_THRESHOLDS });
    expect(await flows.next(60_000)).toEqual({
      data: {
        flowsUpdated: {
          borders: expect.arrayContaining(['DE_LU->FR', 'AT->CH']),
          item: 'flows',
          from: '2025-11-05T10:00:00Z',
          to: '2025-11-05T11:00:00Z',
        },
      },
    });
    clock = new Date('2025-11-05T11:46:00Z');
    expect(await prices.next(60_000)).toEqual({
      data: {
        pricesPublished: {
          zones: expect.arrayContaining(['FR', 'DE_LU']),
          from: '2025-11-05T23:00:00Z',
          to: '2025-11-06T23:00:00Z',
        },
      },
    });
    flows.close();
    prices.close();
  });
});
