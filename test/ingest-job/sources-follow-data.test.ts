/**
 * meta.upstream_sources is kept between requests (the read memo) only until the data changes: an
 * ingestion committed while the server runs shows in the next response of the same days, through
 * the data event that bumps the served data version. With RESPONSE_CACHE=false, so that only the
 * memo keeps anything.
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { DEMO_TEST_NOW, TEST_BACKENDS } from '../support/db.js';
import { blockSetup, upstreamTest as it } from '../support/fixtures.js';
import { type FakeUpstream, fixture } from './fake-upstream.js';
import { EIC, fakeClient, ingest, key } from './helpers.js';

const ENTSOE = 'ENTSO-E Transparency Platform';

describe.each(TEST_BACKENDS)('upstream sources of a running server follow an ingestion on %s', (kind) => {
  let db!: Database;
  let fake: FakeUpstream;
  let app: App;
  let sourceReads = 0;
  const sources = async (path: string) => {
    const body = (await (await app.yoga.fetch(new URL(path, 'http://test'), {})).json()) as {
      meta: { upstream_sources: string[] };
    };
    return body.meta.upstream_sources;
  };
  const prices = (to: string) =>
    `/api/v1/prices?zone=ES&datetime_from=2025-10-01T00:00Z&datetime_to=${to}&resolution=1H`;

  it.override({ backend: kind, seed: 'demo' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb, fileUpstream }) =>
    block.run(async () => {
      db = fileDb;
      fake = fileUpstream;
      fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture('A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml') });
      const counting: Database = {
        ...db,
        preparedQuery: (sql, params) => (
          (sourceReads += Number(sql.includes('WITH RECURSIVE arrays'))), db.preparedQuery(sql, params)
        ),
      };
      app = await createApp({
        config: testConfig({ RESPONSE_CACHE: false }),
        db: counting,
        now: () => DEMO_TEST_NOW.getTime(),
      });
    }),
  );

  it('reads the sources of a range once, then names ENTSO-E for the same days once an ingestion replaced the demo data', async () => {
    expect(await sources(prices('2025-10-01T12:00Z'))).not.toContain(ENTSOE);
    expect(await sources(prices('2025-10-01T12:30Z'))).not.toContain(ENTSOE);
    expect(sourceReads).toBe(1);
    const before = app.version.current;
    await ingest(db, fakeClient(fake).client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    for (let i = 0; i < 100 && app.version.current === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(app.version.current).toBeGreaterThan(before);
    expect(await sources(prices('2025-10-01T13:00Z'))).toContain(ENTSOE);
    expect(sourceReads).toBe(2);
  });
});
