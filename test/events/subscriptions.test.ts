/**
 * End to end: a subscriber is connected over SSE, an ingestion against the fake upstream commits,
 * and the event arrives within a second, on every server instance sharing the database.
 */
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { ARG_LIMITS } from '../../src/limits.js';
import { TEST_BACKENDS } from '../support/db.js';
import { blockSetup, upstreamTest as it } from '../support/fixtures.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { type FakeUpstream, fixture } from '../ingest-job/fake-upstream.js';
import { a11, EIC, fakeClient, ingest, key } from '../ingest-job/helpers.js';
import { subscribe, type Fetcher } from './sse.js';

const PRICES = 'subscription ($zones: [String!]) { pricesPublished(zones: $zones) { zones from to } }';
const FLOWS = 'subscription ($borders: [String!]) { flowsUpdated(borders: $borders) { borders item from to } }';

const fetcherOf =
  (app: App): Fetcher =>
  async (url, init) =>
    app.yoga.fetch(new URL(url, 'http://test'), init);

describe.each(TEST_BACKENDS)('data events on %s', (kind) => {
  let db!: Database;
  let fake: FakeUpstream;
  let app: App;

  it.override({ backend: kind, seed: 'empty' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb, fileUpstream }) =>
    block.run(async () => {
      db = fileDb;
      fake = fileUpstream;
      fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture('A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml') });
      fake.serve(key('A11', EIC.FR, EIC.ES), { body: a11(EIC.ES, EIC.FR, '2025-09-30T00:00Z', Array(24).fill(500)) });
      app = await createApp({ config: testConfig({ SUBSCRIPTIONS_PER_CLIENT: 20 }), db });
    }),
  );

  it('delivers pricesPublished within a second of the ingestion window committing, to subscribers of the zone and of an empty list (all zones)', async () => {
    const stream = await subscribe(fetcherOf(app), PRICES, { zones: ['ES'] });
    const everyZone = await subscribe(fetcherOf(app), PRICES, { zones: [] });
    const elsewhere = await subscribe(fetcherOf(app), PRICES, { zones: ['FR'] });
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    const { client } = fakeClient(fake);
    const summary = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    const committed = performance.now();
    expect(summary.completed).toBeGreaterThan(0);
    const event = await stream.next(1_000);
    expect(performance.now() - committed).toBeLessThan(1_000);
    expect(event).toEqual({
      data: { pricesPublished: { zones: ['ES'], from: expect.stringMatching(/^2025-09-29/), to: expect.any(String) } },
    });
    expect(await everyZone.next(1_000)).toEqual(event);
    await expect(elsewhere.next(300)).rejects.toThrow(/no event/);
    for (const s of [stream, everyZone, elsewhere]) s.close();
  });

  it('delivers flowsUpdated only to subscribers of the border, in either orientation, its argument written inline or through any variable', async () => {
    const watching = await subscribe(fetcherOf(app), FLOWS, { borders: ['FR->ES'] });
    const elsewhere = await subscribe(fetcherOf(app), FLOWS, { borders: ['FR->BE'] });
    const inlineElsewhere = await subscribe(
      fetcherOf(app),
      'subscription { flowsUpdated(borders: ["FR->BE"]) { borders } }',
    );
    const renamed = await subscribe(
      fetcherOf(app),
      'subscription ($watch: [String!]) { flowsUpdated(borders: $watch) { borders item } }',
      { watch: ['FR->ES'] },
    );
    const { client } = fakeClient(fake);
    await ingest(db, client, '2025-09-30', '2025-10-01', { what: ['flows'], borders: ['ES->FR'] });
    for (const s of [watching, renamed])
      expect(await s.next(1_000)).toMatchObject({ data: { flowsUpdated: { borders: ['ES->FR'], item: 'flows' } } });
    for (const s of [elsewhere, inlineElsewhere]) await expect(s.next(300)).rejects.toThrow(/no event/);
    for (const s of [watching, elsewhere, inlineElsewhere, renamed]) s.close();
  });

  it('answers an unknown zone written inline with a BAD_USER_INPUT event, not a silent stream', async () => {
    const stream = await subscribe(fetcherOf(app), 'subscription { pricesPublished(zones: ["ZZ"]) { zones } }');
    const first = await stream.next(1_000);
    expect(first === 'complete' ? first : first.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    stream.close();
  });

  it('answers an unknown zone with BAD_USER_INPUT instead of a stream', async () => {
    const res = await app.yoga.fetch(new URL('/graphql', 'http://test'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: PRICES, variables: { zones: ['XX'] } }),
    });
    const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it.for([
    ['zones', PRICES, 'ES'],
    ['borders', FLOWS, 'FR->ES'],
  ] as const)(
    'refuses more %s than every list argument takes (the declared bound) before any stream starts',
    async ([name, query, code]) => {
      const res = await app.yoga.fetch(new URL('/graphql', 'http://test'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query, variables: { [name]: Array(ARG_LIMITS.listEntries + 1).fill(code) } }),
      });
      const text = await res.text();
      expect(text).toContain('BAD_USER_INPUT');
      expect(text).toContain(name);
      expect(text).not.toMatch(/"(pricesPublished|flowsUpdated)":\{/);
    },
  );
});

describe.runIf(TEST_DATABASE_URL)('data events across instances on one PostgreSQL', () => {
  it.override({ backend: 'postgres', seed: 'empty' });

  it('both instances deliver the event of an ingestion run by a third connection', async ({ db, upstream: fake }) => {
    const pool = (size: number) =>
      openPostgres(testConfig({ DATABASE_SCHEMA: db.schema, DATABASE_POOL_SIZE: size }), TEST_DATABASE_URL!);
    const second = await pool(2);
    fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture('A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml') });
    const apps: App[] = [];
    try {
      apps.push(await createApp({ config: testConfig(), db }), await createApp({ config: testConfig(), db: second }));
      const streams = await Promise.all(apps.map((a) => subscribe(fetcherOf(a), PRICES, { zones: ['ES'] })));
      const ingestDb = await pool(1);
      try {
        await ingest(ingestDb, fakeClient(fake).client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
      } finally {
        await ingestDb.close();
      }
      const events = await Promise.all(streams.map((s) => s.next(1_000)));
      for (const e of events) expect(e).toMatchObject({ data: { pricesPublished: { zones: ['ES'] } } });
      for (const s of streams) s.close();
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await second.close();
    }
  });
});
