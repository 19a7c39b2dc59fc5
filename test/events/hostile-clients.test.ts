/**
 * Nothing a client or a database session does takes the server down: a subscriber that stops
 * reading while thousands of events arrive, and any payload NOTIFYed on the data events channel
 * (which any session of the database may write to).
 */
import { pino } from 'pino';
import { describe, expect } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { DATA_CATALOGUE } from '../../src/domain/catalogue.js';
import { dataEventsChannel } from '../../src/domain/data-events.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { type Fetcher, subscribe } from './sse.js';

const PRICES = 'subscription ($zones: [String!]) { pricesPublished(zones: $zones) { zones from to } }';
const fetcherOf =
  (app: App): Fetcher =>
  async (url, init) =>
    app.yoga.fetch(new URL(url, 'http://test'), init);

describe.each(TEST_BACKENDS)('live events on %s, against hostile notifications and slow clients', (kind) => {
  let db!: Database;
  let app: App;
  const logged: { msg: string; reason?: string; dropped?: number }[] = [];
  const event = (area: string, day = 1) =>
    JSON.stringify({
      schema: db.schema,
      kind: 'prices',
      item: 'prices',
      areas: [area],
      from: `2025-10-0${day}T00:00:00Z`,
      to: `2025-10-0${day + 1}T00:00:00Z`,
    });
  const notify = (payload: string | null) =>
    db.rawQuery('SELECT pg_notify($1, $2)', [dataEventsChannel(db.schema), payload]);
  const healthy = async () => (await app.yoga.fetch(new URL('/healthz', 'http://test'))).status;

  it.override({ backend: kind, seed: 'empty' });
  const block = blockSetup(async () => {
    await app?.close();
  });
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
      app = await createApp({ config: testConfig(), db, logger });
    }),
  );

  it('drops every payload that is not a data event of its schema with one warning line, and keeps serving and delivering', async () => {
    const stream = await subscribe(fetcherOf(app), PRICES, { zones: ['ES'] });
    const junk = [
      'null',
      '',
      'true',
      '42',
      '"ES"',
      '[]',
      '[null]',
      '{}',
      '{"schema":null}',
      'x'.repeat(7_900),
      `{"schema":"${'é'.repeat(3_900)}"}`,
      JSON.stringify({ schema: db.schema, kind: 'prices', item: 'prices', areas: 'ES', from: 1, to: null }),
      JSON.stringify({
        schema: db.schema,
        kind: ['prices'],
        item: {},
        areas: [{}],
        from: '2025-10-01',
        to: '2025-10-02',
      }),
      JSON.stringify({ table: 'users', action: 'INSERT', id: 7 }),
      event('ES').replace(`"${db.schema}"`, '"another_schema"'),
    ];
    for (const payload of [...junk, null]) await notify(payload);
    await notify(event('ES'));
    expect(await stream.next(2_000)).toEqual({
      data: { pricesPublished: { zones: ['ES'], from: '2025-10-01T00:00:00Z', to: '2025-10-02T00:00:00Z' } },
    });
    expect(await healthy()).toBe(200);
    const warnings = logged.filter((l) => l.msg.includes('dropped'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ reason: expect.any(String), dropped: 1 });
    stream.close();
  });

  it('ends the stream of a subscriber that stopped reading under 16,000 events with SLOW_CONSUMER, other streams unaffected', async () => {
    const paused = await subscribe(fetcherOf(app), PRICES);
    const watching = await subscribe(fetcherOf(app), PRICES, { zones: ['FR'] });
    await notify(event('DE_LU'));
    expect(await paused.next(2_000)).toMatchObject({ data: { pricesPublished: { zones: ['DE_LU'] } } });
    const version = app.version.current;
    // Pairs of catalogue zones (areas outside the catalogue are dropped): far more distinct events than a queue holds.
    const zones = DATA_CATALOGUE.zones.map((z) => z.code).filter((code) => code !== 'FR');
    await db.rawQuery(
      `SELECT pg_notify($1, json_build_object('schema', $2::text, 'kind', 'prices', 'item', 'prices',
         'areas', json_build_array(($3::text[])[1 + i % cardinality($3::text[])], ($3::text[])[1 + (i / cardinality($3::text[])) % cardinality($3::text[])]),
         'from', to_char(timestamp '2025-10-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
         'to', '2026-10-01T00:00:00Z')::text) FROM generate_series(1, 16000) AS i`,
      [dataEventsChannel(db.schema), db.schema, zones],
    );
    await notify(event('FR'));
    expect(await watching.next(5_000)).toMatchObject({ data: { pricesPublished: { zones: ['FR'] } } });
    expect(app.version.current).toBeGreaterThanOrEqual(version + 16_001);
    let last: Awaited<ReturnType<typeof paused.next>> = 'complete';
    for (let i = 0; i <= 16_000; i++) {
      last = await paused.next(2_000);
      if (last === 'complete' || last.errors) break;
    }
    expect(last !== 'complete' && last.errors?.[0]?.extensions?.code).toBe('SLOW_CONSUMER');
    expect(await paused.next(2_000)).toBe('complete');
    expect(await healthy()).toBe(200);
    watching.close();
  });

  it('sends event streams without a Content-Encoding header ("none" is not a coding)', async () => {
    const stream = await subscribe(fetcherOf(app), PRICES, {}, { 'accept-encoding': 'gzip, br' });
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.response.headers.get('content-encoding')).toBeNull();
    stream.close();
  });
});
