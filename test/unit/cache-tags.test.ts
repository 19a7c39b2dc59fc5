/** Cache tags: what each answer names, and what each data event purges (see src/http/cache-tags.ts). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DATA_CATALOGUE } from '../../src/domain/catalogue.js';
import { cachePurger, instancePurger, PURGE_TAGS_PER_REQUEST } from '../../src/events/cache-purge.js';
import { eventTags, responseTags } from '../../src/http/cache-tags.js';

const event = { item: 'prices', from: new Date('2025-10-01T00:00Z'), to: new Date('2025-10-02T00:00Z') };

describe('cache tags', () => {
  it('names the dataset and the zones or borders an answer filters on, in canonical form', () => {
    expect(responseTags(['prices'], { zone: ['de-lu', '10YFR-RTE------C'] }, DATA_CATALOGUE)).toEqual([
      'prices',
      'prices:DE_LU',
      'prices:FR',
    ]);
    expect(responseTags(['prices'], {}, DATA_CATALOGUE)).toEqual(['prices', 'prices:all']);
    expect(responseTags(['flows'], { border: ['FR->DE_LU'], zone: ['ES'] }, DATA_CATALOGUE)).toEqual([
      'flows',
      'flows:ES',
      'flows:DE_LU->FR',
    ]);
    expect(responseTags(['prices', 'flows'], { border: ['DE_LU->FR'] }, DATA_CATALOGUE)).toEqual([
      'prices',
      'flows',
      'prices:DE_LU',
      'prices:FR',
      'flows:DE_LU->FR',
    ]);
    expect(responseTags(['catalogue'], {}, DATA_CATALOGUE)).toEqual(['catalogue']);
    expect(responseTags([], {}, DATA_CATALOGUE)).toEqual([]);
  });

  it("purges a zone's prices and, as they reclassify its borders, their flows; never another zone's prices", () => {
    const tags = eventTags({ ...event, kind: 'prices', zones: ['ES'], borders: [] });
    expect(tags).toEqual(
      expect.arrayContaining(['prices:ES', 'prices:all', 'flows:ES', 'flows:ES->FR', 'flows:ES->PT', 'flows:all']),
    );
    expect(tags.filter((t) => t.startsWith('prices:'))).toEqual(['prices:ES', 'prices:all']);
    expect(tags).not.toContain('prices');
  });

  it("purges a border's flows, its zones' flow answers and every-zone answers, and no prices", () => {
    expect(eventTags({ ...event, item: 'flows', kind: 'flows', zones: [], borders: ['DE_LU->FR'] })).toEqual([
      'flows:DE_LU->FR',
      'flows:DE_LU',
      'flows:FR',
      'flows:all',
    ]);
  });

  it('a purge that fails is reported, not thrown', async () => {
    const lines: string[] = [];
    await cachePurger('http://127.0.0.1:9/', (l) => lines.push(l), { repurgeAfterMs: 0 })!({
      ...event,
      kind: 'prices',
      zones: ['ES'],
      borders: [],
    });
    expect(lines).toEqual([expect.stringMatching(/^cache purge of prices:ES .* failed: /)]);
  });

  it('purges each event again after the delay, so a copy stored from an instance that had not yet dropped its caches goes too', async () => {
    const seen: { at: number; tags: string }[] = [];
    const server = createServer((req, res) => {
      seen.push({ at: performance.now(), tags: String(req.headers['surrogate-key']) });
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const purge = cachePurger(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (l) => expect.fail(l), {
        repurgeAfterMs: 200,
      })!;
      const started = performance.now();
      await purge({ ...event, kind: 'prices', zones: ['ES'], borders: [] });
      expect(seen).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 400));
      expect(seen.map((s) => s.tags)).toEqual([seen[0]!.tags, seen[0]!.tags]);
      expect(seen[1]!.at - started).toBeGreaterThanOrEqual(190);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('an instance purges the tags of a burst of events once its caches dropped them, merged into few requests', async () => {
    const seen: string[][] = [];
    const server = createServer((req, res) => {
      expect(req.method).toBe('PURGE');
      seen.push(String(req.headers['surrogate-key']).split(' '));
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const purge = instancePurger(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (l) =>
        expect.fail(l),
      )!;
      const zones = DATA_CATALOGUE.zones.map((z) => z.code);
      for (let i = 0; i < 1_000; i++)
        purge({ ...event, kind: 'prices', zones: [zones[i % zones.length]!], borders: [] });
      const expected = new Set(zones.flatMap((z) => eventTags({ ...event, kind: 'prices', zones: [z], borders: [] })));
      await new Promise((r) => setTimeout(r, 300));
      expect(seen.length).toBe(Math.ceil(expected.size / PURGE_TAGS_PER_REQUEST));
      expect(new Set(seen.flat())).toEqual(expected);
      expect(seen.flat()).toHaveLength(expected.size);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('an instance without CACHE_PURGE_URL purges nothing', () => {
    expect(instancePurger(undefined)).toBeUndefined();
  });
});
