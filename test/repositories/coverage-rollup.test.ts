import { describe, expect } from 'vitest';
import { HOUR_MS } from '../../src/domain/calendar.js';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import {
  findBorderSpans,
  findPriceSpans,
  readBorderSpans,
  readPriceSpans,
} from '../../src/repositories/catalogue/coverage.js';
import { deleteOutagesByMrid } from '../../src/repositories/ingest/ledger.js';
import {
  type BorderHourRow,
  type PricePointRow,
  loadBorderHours,
  loadOutages,
  loadPrices,
} from '../../src/repositories/ingest/load.js';
import { inTransaction } from '../../src/db/executor.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';

const hoursFrom = (start: Date, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(start.getTime() + i * HOUR_MS));

describe.each(TEST_BACKENDS)('coverage rollup (%s)', (backend) => {
  let db!: Database;
  let zoneIds: number[];
  let borderIds: number[];
  let range: { first: Date; last: Date };

  /** The rollup's coverage of every zone and border, and the coverage computed from the facts. */
  async function both() {
    const rollup = { zones: await readPriceSpans(db, zoneIds), borders: await readBorderSpans(db, borderIds) };
    const facts = { zones: await findPriceSpans(db, zoneIds), borders: await findBorderSpans(db, borderIds) };
    const byKey = <T extends { zone?: string; border?: string }>(rows: T[]) =>
      [...rows].sort((a, b) => String(a.zone ?? a.border).localeCompare(String(b.zone ?? b.border)));
    return {
      rollup: { zones: byKey(rollup.zones), borders: byKey(rollup.borders) },
      facts: { zones: byKey(facts.zones), borders: byKey(facts.borders) },
    };
  }

  it.override({ backend, seed: 'demo' });
  const block = blockSetup();
  it.beforeEach(({ fileDb }) =>
    block.run(async () => {
      db = fileDb;
      const catalogue = await readCatalogue(db);
      zoneIds = catalogue.zones.map((z) => z.id);
      borderIds = catalogue.borders.map((b) => b.id);
      const [span] = await db.rawQuery<{ first: Date; last: Date }>(
        'SELECT min(ts) AS first, max(ts) AS last FROM border_hour',
      );
      range = { first: new Date(span!.first), last: new Date(span!.last) };
    }),
  );

  it('equals the coverage computed from the facts after the demo seed', async () => {
    const { rollup, facts } = await both();
    expect(facts.zones.length).toBeGreaterThan(0);
    expect(rollup).toEqual(facts);
  });

  it('equals the coverage computed from the facts after reloads that replace the ends of series, add and remove a source', async () => {
    const priced = await db.rawQuery<{ zone_id: number }>(
      'SELECT DISTINCT zone_id FROM price_point ORDER BY zone_id LIMIT 2',
    );
    const [zone, otherZone] = priced.map((r) => Number(r.zone_id)) as [number, number];
    const [a, b, c] = borderIds as [number, number, number];
    const hourlyPrices = (zoneId: number, start: Date, n: number, source: 'demo' | 'entsoe'): PricePointRow[] =>
      hoursFrom(start, n).map((ts) => ({
        zoneId,
        ts,
        periodMinutes: 60,
        priceEurMwh: 50,
        interpolated: false,
        source,
      }));
    await loadPrices(db, hourlyPrices(zone, range.first, 24, 'entsoe'));
    await loadPrices(db, hourlyPrices(otherZone, new Date(range.last.getTime() - 23 * HOUR_MS), 24, 'entsoe'));
    const noPhysical = (borderId: number, start: Date, n: number): BorderHourRow[] =>
      hoursFrom(start, n).map((ts) => ({ borderId, ts, physicalAbMw: null, physicalBaMw: null, physicalSource: null }));
    await loadBorderHours(db, noPhysical(a, range.first, 48), ['physical']);
    await loadBorderHours(db, noPhysical(a, new Date(range.last.getTime() - 47 * HOUR_MS), 48), ['physical']);
    const middle = new Date(range.first.getTime() + 240 * HOUR_MS);
    const scheduled = (source: 'demo' | 'entsoe'): BorderHourRow[] =>
      hoursFrom(middle, 24).map((ts) => ({
        borderId: b,
        ts,
        scheduledAbMw: 100,
        scheduledBaMw: 0,
        scheduledSource: source,
      }));
    await loadBorderHours(db, scheduled('entsoe'), ['scheduled']);
    expect((await readBorderSpans(db, [b]))[0]?.scheduled?.sources).toEqual(['demo', 'entsoe']);
    await loadBorderHours(db, scheduled('demo'), ['scheduled']);
    const allHours = Math.round((range.last.getTime() - range.first.getTime()) / HOUR_MS) + 1;
    await loadBorderHours(
      db,
      hoursFrom(range.first, allHours).map((ts) => ({
        borderId: c,
        ts,
        ntcAbMw: null,
        ntcBaMw: null,
        ntcSource: null,
      })),
      ['ntc'],
    );

    const { rollup, facts } = await both();
    expect(rollup).toEqual(facts);
    expect(rollup.borders.find((s) => s.ntc === null && s.physical !== null)).toBeDefined();
    expect(rollup.zones.filter((s) => s.sources.join() === 'demo,entsoe')).toHaveLength(2);
  });

  it('equals the coverage computed from the facts after outages are replaced and removed', async () => {
    const [outage] = await db.rawQuery<{ border_id: number; mrid: string | null }>(
      'SELECT border_id, mrid FROM border_outage WHERE mrid IS NOT NULL ORDER BY ends_at DESC LIMIT 1',
    );
    const [, , , d] = borderIds as [number, number, number, number];
    if (outage) await deleteOutagesByMrid(db, outage.border_id, [outage.mrid!]);
    await loadOutages(db, [
      {
        borderId: d,
        startsAt: range.first,
        endsAt: range.last,
        planned: true,
        reason: null,
        mrid: 'coverage-test',
        source: 'entsoe',
      },
    ]);
    const { rollup, facts } = await both();
    expect(rollup).toEqual(facts);
    expect(rollup.borders.find((s) => s.outages?.sources.includes('entsoe'))).toBeDefined();
  });

  it.runIf(backend === 'postgres')(
    'stays equal to the facts when two loads of one border commit concurrently',
    async () => {
      const [, , , , e] = borderIds as [number, number, number, number, number];
      const physical = (start: Date, source: 'entsoe' | 'demo'): BorderHourRow[] =>
        hoursFrom(start, 24).map((ts) => ({
          borderId: e,
          ts,
          physicalAbMw: 10,
          physicalBaMw: 0,
          physicalSource: source,
        }));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = inTransaction(db, async (sql) => {
        await loadBorderHours(sql, physical(range.first, 'entsoe'), ['physical']);
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = loadBorderHours(db, physical(new Date(range.last.getTime() - 23 * HOUR_MS), 'entsoe'), [
        'physical',
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await Promise.all([first, second]);
      const { rollup, facts } = await both();
      expect(rollup).toEqual(facts);
    },
  );
});
