/**
 * Zones and borders are checked once, by the services, against the catalogue the server read from
 * its database, on both surfaces alike: a zone stored there beyond the source data (a newer
 * release's catalogue on a shared database) is served, and suggestions come from what is served.
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { DEMO_TEST_NOW } from '../support/db.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; issues?: { param: string }[] } }[];
}

describe.each(TEST_BACKENDS)('the served catalogue on %s', (kind) => {
  let app: App;
  it.override({ backend: kind, seed: 'empty' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb: db }) =>
    block.run(async () => {
      await db.rawQuery(
        `INSERT INTO zone (code, eic, name, time_zone) VALUES ('ZZ_NEW', '10Y-TEST-NEW---Z', 'Later zone', 'Europe/Paris')`,
      );
      await db.rawQuery(
        `INSERT INTO border (zone_a_id, zone_b_id) SELECT a.id, b.id FROM zone a, zone b WHERE a.code = 'FR' AND b.code = 'ZZ_NEW'`,
      );
      app = await createApp({ config: testConfig(), db, now: () => DEMO_TEST_NOW.getTime() });
    }),
  );

  async function askGraphql(query: string): Promise<Answer> {
    const res = await app.yoga.fetch(new URL('/graphql', 'http://test'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await res.json()) as Answer;
  }

  it('accepts a stored zone and border the source data lacks, on GraphQL as on REST', async () => {
    const zones = await askGraphql('{ zones(zones: ["zz_new"]) { code timeZone } }');
    expect(zones).toEqual({ data: { zones: [{ code: 'ZZ_NEW', timeZone: 'Europe/Paris' }] } });
    const borders = await askGraphql('{ borders(borders: ["ZZ_NEW->FR"]) { key } }');
    expect(borders).toEqual({ data: { borders: [{ key: 'FR->ZZ_NEW' }] } });
    const range = 'from: "2025-10-01", to: "2025-10-02"';
    const prices = await askGraphql(`{ prices(zones: ["ZZ_NEW"], ${range}, timeZone: "local") { totalCount } }`);
    expect(prices).toEqual({ data: { prices: { totalCount: 0 } } });
    const flows = await askGraphql(`{ flowTypeSummary(borders: ["ZZ_NEW->FR"], ${range}) { meta { resolution } } }`);
    expect(flows.errors).toBeUndefined();
    const rest = await app.yoga.fetch(
      new URL('/api/v1/prices?zone=ZZ_NEW&datetime_from=2025-10-01&datetime_to=2025-10-02', 'http://test'),
    );
    expect(rest.status).toBe(200);
  });

  it('suggests stored codes for an unknown one, named by its index', async () => {
    const answer = await askGraphql('{ zones(zones: ["FR", "ZZ_NEX"]) { code } }');
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toBe(
      'zones.1: Unknown bidding zone: ZZ_NEX; did you mean ZZ_NEW? (got "ZZ_NEX")',
    );
  });
});
