/**
 * The SQL text of every query variant the repositories build (resolution x basis x paging x
 * filters), snapshotted under __snapshots__/sql beside a check of its result on the demo data, so a
 * change to a shared fragment shows in review as the statements it changes.
 */
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { Resolution } from '../../src/domain/resolution.js';
import { findCiCounts, findFlowTypeCounts } from '../../src/repositories/flows/aggregates.js';
import type { FlowBasis, FlowRecord } from '../../src/domain/records.js';
import type { FlowQuery } from '../../src/repositories/flows/row-query.js';
import { findFlowOffsetPage, summarizeFlows } from '../../src/repositories/flows/positions.js';
import { findFlowRows } from '../../src/repositories/flows/read-rows.js';
import { findFlowSources } from '../../src/repositories/flows/sources.js';
import { WIRE_PRICE_DECIMALS, round } from '../../src/domain/rounding.js';
import { countPrices, findPrices, findPriceSources } from '../../src/repositories/prices/rows.js';
import type { PriceRecord } from '../../src/domain/records.js';
import { findPriceKpis, findZoneExchange } from '../../src/repositories/prices/zone-stats.js';
import { TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';

/** A database that records the text of every statement run through its query API. */
function recording(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const record = <F extends (sql: string, params?: unknown[]) => Promise<unknown>>(run: F): F =>
    ((sql: string, params?: unknown[]) => (statements.push(sql), run(sql, params))) as F;
  return {
    statements,
    db: { ...db, rawQuery: record(db.rawQuery), preparedQuery: record(db.preparedQuery) },
  };
}

/** The snapshot file: the result summary, then each statement's text. */
function snapshot(result: Record<string, unknown>, statements: readonly string[]): string {
  const summary = Object.entries(result)
    .map(([k, v]) => `-- ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  const texts = statements.map((s, i) => `-- statement ${i + 1}\n${s.replace(/[ \t]+$/gm, '').trim()};`);
  return `${summary}\n\n${texts.join('\n\n')}\n`;
}

const file = (name: string) => `./__snapshots__/sql/${name}.sql`;

const RESOLUTIONS: readonly Resolution[] = ['native', '1H', '1D', '1W'];
/** Partial first and last days, around a whole week at 1D/1W; two days otherwise. */
const rangeOf = (r: Resolution) =>
  r === 'native' || r === '1H'
    ? { from: new Date('2025-10-10T05:00:00Z'), to: new Date('2025-10-12T07:00:00Z') }
    : { from: new Date('2025-09-23T05:00:00Z'), to: new Date('2025-11-04T07:00:00Z') };

const iso = (d: Date) => d.toISOString();

describe.each(TEST_BACKENDS)('SQL of the repositories (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  const ids = async (table: 'zone' | 'border', limit: number) =>
    (await db.rawQuery<{ id: number }>(`SELECT id FROM ${table} ORDER BY id LIMIT ${limit}`)).map((r) => r.id);
  const zoneIds = async () =>
    (
      await db.rawQuery<{ id: number }>(`SELECT id FROM zone WHERE code IN ('DE_LU', 'FR', 'NL', 'PL') ORDER BY id`)
    ).map((r) => r.id);
  /** What identifies a flow row (its means differ in the last bits with the range they are summed over). */
  const keys = (rows: readonly FlowRecord[]) =>
    rows.map((r) => [iso(r.datetime), r.zoneFrom, r.zoneTo, r.flowType, r.hours]);

  describe.each(RESOLUTIONS)('prices at %s', (resolution) => {
    it.each(['unpaged', 'keyset'] as const)('%s: runs the snapshotted SQL and returns the rows', async (paging) => {
      const { db: rec, statements } = recording(db);
      const q = { zoneIds: (await zoneIds()).slice(0, 3), resolution, ...rangeOf(resolution) };
      const all = await findPrices(db, q);
      const start = all[2];
      const rows =
        paging === 'keyset' && start
          ? await findPrices(rec, { ...q, after: { datetime: start.datetime, zone: start.zone }, limit: 10 })
          : await findPrices(rec, q);
      const total = await countPrices(rec, q);
      const sources = await findPriceSources(rec, q);
      expect(total).toBe(all.length);
      const wire = (r: readonly PriceRecord[]) =>
        r.map((p) => [iso(p.datetime), p.zone, round(p.price, WIRE_PRICE_DECIMALS), p.interpolated]);
      expect(wire(rows)).toEqual(wire(paging === 'keyset' ? all.slice(3, 13) : all));
      const first = rows[0];
      await expect(
        snapshot({ rows: rows.length, total, sources, first: first && [iso(first.datetime), first.zone] }, statements),
      ).toMatchFileSnapshot(file(`prices-${resolution}-${paging}`));
    });

    it('for every zone: runs the snapshotted SQL, scanning without a zone condition, and returns the rows of naming each zone', async () => {
      const { db: rec, statements } = recording(db);
      const named = { zoneIds: await ids('zone', 1_000), resolution, ...rangeOf(resolution) };
      const wire = (r: readonly PriceRecord[]) => r.map((p) => [iso(p.datetime), p.zone, p.price, p.interpolated]);
      const expected = await findPrices(db, named);
      const rows = await findPrices(rec, { ...named, allZones: true });
      const total = await countPrices(rec, { ...named, allZones: true });
      expect(new Set(expected.map((r) => r.zone)).size).toBeGreaterThan(20);
      expect(wire(rows)).toEqual(wire(expected));
      expect(total).toBe(expected.length);
      expect(statements.join('\n')).not.toMatch(/[pd]\.zone_id = ANY/);
      await expect(snapshot({ rows: rows.length, total }, statements)).toMatchFileSnapshot(
        file(`prices-${resolution}-every-zone`),
      );
    });
  });

  const FILTERS = ['all', 'filtered'] as const;
  const PAGINGS = ['offset', 'keyset'] as const;
  const variants = RESOLUTIONS.flatMap((r) =>
    (['physical', 'scheduled'] as FlowBasis[]).flatMap((b) =>
      PAGINGS.flatMap((p) => FILTERS.map((f) => [r, b, p, f] as const)),
    ),
  );

  it.each(variants)(
    'flows at %s on the %s basis, %s paging, %s borders: runs the snapshotted SQL',
    async (resolution, basis, paging, filter) => {
      const { db: rec, statements } = recording(db);
      const borderIds = filter === 'filtered' ? await ids('border', 4) : null;
      const flowTypes = filter === 'filtered' ? ['congestion', 'counter_intuitive'] : [];
      const q: FlowQuery = { resolution, basis, borderIds, flowTypes, ...rangeOf(resolution) };
      const all = await findFlowRows(db, q);
      let rows: typeof all;
      let total: number;
      if (paging === 'offset') {
        const page = await findFlowOffsetPage(rec, q, { offset: 7, limit: 20 });
        [rows, total] = [page.rows, page.total];
        expect(keys(rows)).toEqual(keys(all.slice(7, 27)));
      } else {
        const at = all[6]!;
        rows = await findFlowRows(rec, {
          ...q,
          after: { datetime: at.datetime, zoneFrom: at.zoneFrom, zoneTo: at.zoneTo, flowType: at.flowType },
          limit: 20,
        });
        total = (await summarizeFlows(rec, q)).total;
        expect(keys(rows)).toEqual(keys(all.slice(7, 27)));
      }
      expect(total).toBe(all.length);
      const sources = await findFlowSources(rec, q);
      const first = rows[0];
      await expect(
        snapshot(
          {
            rows: rows.length,
            total,
            sources,
            first: first && [iso(first.datetime), first.zoneFrom, first.zoneTo, first.flowType],
          },
          statements,
        ),
      ).toMatchFileSnapshot(file(`flows-${resolution}-${basis}-${paging}-${filter}`));
    },
  );

  it.each(RESOLUTIONS)('flow aggregates at %s: run the snapshotted SQL', async (resolution) => {
    const { db: rec, statements } = recording(db);
    const range = rangeOf(resolution);
    const ci = await findCiCounts(rec, range, await zoneIds(), resolution);
    const types =
      resolution === '1D' || resolution === '1W'
        ? await findFlowTypeCounts(rec, { ...range, borderIds: null, flowTypes: [] }, resolution)
        : [];
    expect(ci.length).toBeGreaterThan(0);
    const hours = types.reduce((n, t) => n + t.hours, 0);
    await expect(
      snapshot(
        { ciRows: ci.length, ciHours: ci.reduce((n, c) => n + c.totalHours, 0), typeRows: types.length, hours },
        statements,
      ),
    ).toMatchFileSnapshot(file(`flow-aggregates-${resolution}`));
  });

  it('zone statistics: run the snapshotted SQL', async () => {
    const { db: rec, statements } = recording(db);
    const range = rangeOf('1D');
    const zones = await zoneIds();
    const kpis = await findPriceKpis(rec, range, zones);
    const native = await findPriceKpis(rec, range, zones, 'native');
    const exchange = await findZoneExchange(rec, range, zones);
    expect(kpis.length).toBe(4);
    await expect(
      snapshot(
        {
          kpis: kpis.map((k) => [k.zone, k.hours]),
          native: native.map((k) => [k.zone, k.hours]),
          exchange: exchange.map((e) => [e.zone, e.netImporterHours + e.netExporterHours]),
        },
        statements,
      ),
    ).toMatchFileSnapshot(file('zone-stats'));
  });
});
