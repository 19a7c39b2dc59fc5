import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { createTestDatabase, DEMO_TEST_NOW, type TestDatabase } from '../support/db.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const PRICES = '/api/v1/prices?zone=DE_LU&datetime_from=2025-11-01T00:00&datetime_to=2025-11-02T00:00&resolution=1H';
const GQL = JSON.stringify({
  query:
    '{ prices(zones: ["DE_LU"], from: "2025-11-01T00:00", to: "2025-11-02T00:00", resolution: HOURLY) { totalCount } }',
});
/** Requests not asked before the outage: the response caches cannot answer them, so they reach the database. */
const PRICES_FR = PRICES.replace('DE_LU', 'FR');
const GQL_FR = GQL.replace('DE_LU', 'FR');

describe.runIf(TEST_DATABASE_URL)('PostgreSQL going away and coming back (through a TCP proxy)', () => {
  let seeded: TestDatabase;
  let proxy: TcpProxy;
  let db: Database;
  let app: App;
  const get = (path: string, init?: RequestInit) =>
    Promise.resolve(app.yoga.fetch(new URL(path, 'http://test'), init ?? {}));
  const gql = async (body = GQL) =>
    (await (
      await get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    ).json()) as { data?: unknown; errors?: { extensions: { code: string } }[] };

  beforeAll(async () => {
    seeded = await createTestDatabase('postgres', { seed: 'demo' });
    const url = new URL(TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    const config = testConfig({ DATABASE_SCHEMA: seeded.db.schema, DATABASE_POOL_SIZE: 4 });
    db = await openPostgres(config, url.toString());
    app = await createApp({ config, db, now: () => DEMO_TEST_NOW.getTime() });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await proxy.close();
    await seeded.close();
  });

  it('answers 503 on both surfaces while it is gone, then serves the same data again without a restart', async () => {
    const before = await get(PRICES);
    expect(before.status).toBe(200);
    const rows = ((await before.json()) as { data: unknown[] }).data;
    expect(rows).toHaveLength(24);
    const totalBefore = await gql();

    await proxy.cut();
    for (let i = 0; i < 3; i++) {
      const down = await get(PRICES_FR);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ detail: 'The database is unavailable; retry shortly' });
    }
    expect((await gql(GQL_FR)).errors?.[0]?.extensions.code).toBe('DATABASE_UNAVAILABLE');
    expect((await get('/readyz')).status).toBe(503);
    expect((await get('/healthz')).status).toBe(200);

    await proxy.restore();
    expect((await get('/readyz')).status).toBe(200);
    const fr = await get(PRICES_FR);
    expect(fr.status).toBe(200);
    expect(((await fr.json()) as { data: unknown[] }).data).toHaveLength(24);
    expect((await gql(GQL_FR)).data).toEqual({ prices: { totalCount: 24 } });
    const after = await get(PRICES);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: unknown[] }).data).toEqual(rows);
    expect(await gql()).toEqual(totalBefore);
  });

  it('reports the pool on /metrics', async () => {
    await get(PRICES);
    const text = await (await get('/metrics')).text();
    expect(text).toContain('db_pool_max 4');
    expect(text).toMatch(/db_pool_connections\{state="open"\} [1-4]\n/);
    expect(text).toMatch(/db_pool_connections\{state="in_use"\} 0\n/);
    expect(text).toContain('db_pool_waiting_requests 0');
  });
});
