/** Data events name only areas of the catalogue, and never make a cache tag that splits into several. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { DATA_CATALOGUE } from '../../src/domain/catalogue.js';
import { dataEventsChannel, readDataEvent } from '../../src/domain/data-events.js';
import { eventTags, setCacheTags } from '../../src/http/cache-tags.js';
import { appOver, type TestApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const FROM = '2025-10-01T00:00:00Z';
const TO = '2025-10-02T00:00:00Z';
const payload = (schema: string, kind: 'prices' | 'flows', areas: string[]) =>
  JSON.stringify({ schema, kind, item: kind, areas, from: FROM, to: TO });
const border = DATA_CATALOGUE.borders.find((b) => b.key === 'DE_LU->FR') ?? DATA_CATALOGUE.borders[0]!;
const reversed = `${border.b}->${border.a}`;

describe('reading a data event', () => {
  it('keeps the zones of the catalogue and drops (and counts) the others', () => {
    const read = readDataEvent(payload('s', 'prices', ['DE_LU', 'XX', 'DE_LU prices', 'FR,flows', 'FR']), 's');
    expect(read).toEqual({
      event: {
        kind: 'prices',
        item: 'prices',
        zones: ['DE_LU', 'FR'],
        borders: [],
        from: new Date(FROM),
        to: new Date(TO),
      },
      unknownAreas: 3,
    });
  });

  it('keeps borders in stored orientation only', () => {
    const read = readDataEvent(payload('s', 'flows', [border.key, reversed, `${border.key} x`]), 's');
    expect(read).toMatchObject({ event: { borders: [border.key], zones: [] }, unknownAreas: 2 });
  });

  it('drops an event whose areas are all unknown, counting them', () => {
    expect(readDataEvent(payload('s', 'prices', ['prices', 'DE_LU flows', 'de_lu']), 's')).toEqual({
      dropped: 'no area of the catalogue',
      unknownAreas: 3,
    });
  });
});

describe('cache tags', () => {
  const at = { item: 'prices', borders: [], from: new Date(FROM), to: new Date(TO) };

  it('leaves out an area that would split into several tags, never naming a whole dataset', () => {
    const tags = eventTags({ ...at, kind: 'prices', zones: ['ES', 'XX prices', 'YY,flows'] });
    expect(tags).toEqual([
      'prices:ES',
      'flows:ES',
      'prices:all',
      ...DATA_CATALOGUE.bordersOf('ES').map((b) => `flows:${b.key}`),
      'flows:all',
    ]);
    expect(tags.filter((t) => /[\s,]/.test(t) || t === 'prices' || t === 'flows')).toEqual([]);
  });

  it('refuses unsafe tags in response headers', () => {
    const headers = new Headers();
    setCacheTags(headers, ['prices', 'prices:DE_LU', 'prices:X prices', 'flows:"a"']);
    expect(headers.get('surrogate-key')).toBe('prices prices:DE_LU');
    expect(headers.get('cache-tag')).toBe('prices,prices:DE_LU');
  });
});

describe.each(TEST_BACKENDS)('a hostile NOTIFY on the running app (%s)', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let t: TestApp;
  let purger: Server;
  const purged: string[] = [];
  // The app's purge URL names the purger's port, known once it listens: the app is built here, over the file's database.
  const setup = blockSetup<TestApp & { close(): Promise<void> }>(async (app) => {
    await app?.close();
    await new Promise((resolve) => purger?.close(resolve));
  });
  it.beforeEach(({ fileDb }) =>
    setup.run(async () => {
      purger = createServer((req, res) => {
        purged.push(String(req.headers['surrogate-key']));
        res.end();
      });
      await new Promise<void>((resolve) => purger.listen(0, '127.0.0.1', resolve));
      const { port } = purger.address() as AddressInfo;
      const app = await appOver(fileDb, { config: { CACHE_PURGE_URL: `http://127.0.0.1:${port}/` } });
      t = app;
      return app;
    }),
  );

  const notify = (text: string) => t.db.rawQuery('SELECT pg_notify($1, $2)', [dataEventsChannel(t.db.schema), text]);
  const unknownAreas = async () => {
    const text = await (await t.get('/metrics')).text();
    return Number(/^data_event_unknown_areas_total (\d+)/m.exec(text)?.[1]);
  };
  const waitFor = async (done: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 200 && !(await done()); i++) await new Promise((r) => setTimeout(r, 25));
  };

  it('purges only the tags of known areas and counts the unknown ones', async () => {
    expect(await unknownAreas()).toBe(0);
    await notify(payload(t.db.schema, 'prices', ['prices flows catalogue', 'ZZ']));
    await notify(payload(t.db.schema, 'prices', ['ES', 'ES prices']));
    await waitFor(async () => purged.length > 0 && (await unknownAreas()) === 3);
    expect(await unknownAreas()).toBe(3);
    expect(purged).toHaveLength(1);
    const sent = purged[0]!.split(' ');
    expect(sent).toEqual(
      eventTags({ kind: 'prices', item: 'prices', zones: ['ES'], borders: [], from: new Date(FROM), to: new Date(TO) }),
    );
    expect(sent).not.toContain('prices');
    expect(sent).not.toContain('catalogue');
  });
});
