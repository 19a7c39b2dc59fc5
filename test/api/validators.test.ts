/**
 * Validators that mean the data: every instance over the same database, and every restart, sends
 * the same ETag for the same answer, whatever events it saw; changed data gets a new tag on every
 * instance, including one that never heard of the change.
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import { PricesQuery } from '../../src/dashboard/queries.js';
import { dashboardDocumentText } from '../support/dashboard.js';
import { loadPrices } from '../../src/repositories/ingest/load.js';
import { DEMO_TEST_NOW } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const PAST = '/api/v1/prices?zone=DE_LU&datetime_from=2025-10-01&datetime_to=2025-10-08';
const FLOWS = '/api/v1/flows?datetime_from=2025-10-01&datetime_to=2025-10-03';
const URLS = [PAST, `${PAST}&format=csv`, FLOWS, `${FLOWS}&format=csv`, `${FLOWS}&format=arrow`];
const GRAPHQL_PRICES = `/graphql?query=${encodeURIComponent(dashboardDocumentText(PricesQuery))}&variables=${encodeURIComponent(JSON.stringify({ zones: ['DE_LU'], from: '2025-10-01', to: '2025-10-08', resolution: 'HOURLY', first: 500 }))}`;

describe.each(TEST_BACKENDS)('validators on %s', (backend) => {
  let db!: Database;
  const apps: App[] = [];
  const start = async (config: Partial<Config> = {}) => {
    const app = await createApp({ config: testConfig(config), db, now: () => DEMO_TEST_NOW.getTime() });
    apps.push(app);
    return app;
  };
  const get = (app: App, path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(
      app.yoga.fetch(new URL(path, 'http://test'), {
        headers: { accept: 'application/graphql-response+json', ...headers },
      }),
    );
  const etagOf = async (app: App, path: string) => {
    const res = await get(app, path);
    expect(res.status, path).toBe(200);
    await res.arrayBuffer();
    return res.headers.get('etag');
  };

  it.override({ backend, seed: 'demo' });
  const block = blockSetup(async () => {
    for (const app of apps) await app.close();
  });
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
    }),
  );

  it('two instances, one having seen events, send the same ETag for the same REST and GraphQL answers, and a restart too', async () => {
    const seasoned = await start();
    for (let i = 0; i < 3; i++) seasoned.version.bump();
    const fresh = await start();
    for (const url of [...URLS, GRAPHQL_PRICES]) {
      const tag = await etagOf(seasoned, url);
      expect(tag, url).toMatch(/^"[\w-]+"$/);
      expect(await etagOf(seasoned, url), url).toBe(tag);
      expect(await etagOf(fresh, url), url).toBe(tag);
      expect((await get(fresh, url, { 'if-none-match': tag! })).status, url).toBe(304);
    }
    const restarted = await start();
    for (const url of URLS) expect(await etagOf(restarted, url), url).toBe(await etagOf(seasoned, url));
  });

  it('an ingest gives a new tag on every instance, also on one that was told nothing, and a 200 to the old tag', async () => {
    const told = await start();
    const untold = await start({ RESPONSE_CACHE: false });
    const before = await etagOf(told, PAST);
    const zoneId = (await db.rawQuery<{ id: number }>('SELECT id FROM zone WHERE code = $1', ['DE_LU']))[0]!.id;
    const bumped = told.version.current;
    await loadPrices(db, [
      {
        zoneId,
        ts: new Date('2025-10-02T10:00:00Z'),
        periodMinutes: 60,
        priceEurMwh: 1234.5,
        interpolated: false,
        source: 'entsoe',
      },
    ]);
    told.version.bump();
    expect(told.version.current).toBeGreaterThan(bumped);
    for (const app of [told, untold]) {
      const res = await get(app, PAST, { 'if-none-match': before! });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('1234.5');
      expect(res.headers.get('etag')).not.toBe(before);
    }
    expect(await etagOf(untold, PAST)).toBe(await etagOf(told, PAST));
  });
});
