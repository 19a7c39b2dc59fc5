/**
 * The SQL of the local-time (`tz`) variants: local 1H/1D/1W price buckets, local 1D/1W flow
 * buckets and flow aggregates, snapshotted under __snapshots__/sql (files `tz-*`) beside a check of
 * their results on the demo data. The no-tz statements are in sql-snapshots.test.ts, unchanged.
 */
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { Resolution } from '../../src/domain/resolution.js';
import { findCiCounts, findFlowTypeCounts } from '../../src/repositories/flows/aggregates.js';
import type { FlowQuery } from '../../src/repositories/flows/row-query.js';
import type { FlowRecord } from '../../src/domain/records.js';
import { findFlowOffsetPage } from '../../src/repositories/flows/positions.js';
import { findFlowRows } from '../../src/repositories/flows/read-rows.js';
import { findPrices } from '../../src/repositories/prices/rows.js';
import { TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';

function recording(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const record = <F extends (sql: string, params?: unknown[]) => Promise<unknown>>(run: F): F =>
    ((sql: string, params?: unknown[]) => (statements.push(sql), run(sql, params))) as F;
  return { statements, db: { ...db, rawQuery: record(db.rawQuery), preparedQuery: record(db.preparedQuery) } };
}

function snapshot(result: Record<string, unknown>, statements: readonly string[]): string {
  const summary = Object.entries(result)
    .map(([k, v]) => `-- ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  const texts = statements.map((s, i) => `-- statement ${i + 1}\n${s.replace(/[ \t]+$/gm, '').trim()};`);
  return `${summary}\n\n${texts.join('\n\n')}\n`;
}

const file = (name: string) => `./__snapshots__/sql/${name}.sql`;
const iso = (d: Date) => d.toISOString();
/** Around the 2025-10-26 switch to winter time. */
const RANGE = { from: new Date('2025-10-20T00:00:00Z'), to: new Date('2025-11-03T00:00:00Z') };
const NAMES: Record<string, string> = { DE_LU: 'Europe/Berlin', FI: 'Europe/Helsinki', PT: 'Europe/Lisbon' };

describe.each(TEST_BACKENDS)('SQL of the local-time variants (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  const zones = async () =>
    db.rawQuery<{ id: number; code: string }>(
      `SELECT id, code FROM zone WHERE code IN ('DE_LU', 'FI', 'PT') ORDER BY id`,
    );
  const borders = async () =>
    db.rawQuery<{ id: number; code: string }>(
      `SELECT b.id, za.code FROM border b JOIN zone za ON za.id = b.zone_a_id WHERE za.code IN ('DE_LU', 'FI') ORDER BY b.id`,
    );

  it.each(['1H', '1D', '1W'] as Resolution[])('prices at %s in local time: local buckets', async (resolution) => {
    const { db: rec, statements } = recording(db);
    const z = await zones();
    const timeZones = { zoneIds: z.map((r) => r.id), names: z.map((r) => NAMES[r.code]!) };
    const range =
      resolution === '1H' ? { from: new Date('2025-10-25T00:00:00Z'), to: new Date('2025-10-27T00:00:00Z') } : RANGE;
    const rows = await findPrices(rec, { zoneIds: timeZones.zoneIds, resolution, timeZones, ...range });
    const de = rows.filter((r) => r.zone === 'DE_LU').map((r) => iso(r.datetime));
    if (resolution === '1D') expect(de).toContain('2025-10-25T22:00:00.000Z');
    if (resolution === '1D') expect(de).toContain('2025-10-26T23:00:00.000Z');
    if (resolution === '1W') expect(de).toContain('2025-10-26T23:00:00.000Z');
    await expect(snapshot({ rows: rows.length, first: iso(rows[0]!.datetime) }, statements)).toMatchFileSnapshot(
      file(`tz-prices-${resolution}`),
    );
  });

  const keys = (rows: readonly FlowRecord[]) =>
    rows.map((r) => [iso(r.datetime), r.zoneFrom, r.zoneTo, r.flowType, r.hours]);

  it.each(['1D', '1W'] as Resolution[])(
    'flows at %s in local time: offset and keyset pages of the whole',
    async (resolution) => {
      const { db: rec, statements } = recording(db);
      const b = await borders();
      const timeZones = { borderIds: b.map((r) => r.id), names: b.map((r) => NAMES[r.code]!) };
      const q: FlowQuery = {
        resolution,
        basis: 'physical',
        borderIds: timeZones.borderIds,
        flowTypes: [],
        timeZones,
        ...RANGE,
      };
      const all = await findFlowRows(db, q);
      const page = await findFlowOffsetPage(rec, q, { offset: 7, limit: 20 });
      expect(keys(page.rows)).toEqual(keys(all.slice(7, 27)));
      const at = all[6]!;
      const keyset = await findFlowRows(rec, {
        ...q,
        after: { datetime: at.datetime, zoneFrom: at.zoneFrom, zoneTo: at.zoneTo, flowType: at.flowType },
        limit: 20,
      });
      expect(keys(keyset)).toEqual(keys(all.slice(7, 27)));
      expect(page.total).toBe(all.length);
      await expect(snapshot({ total: page.total, first: keys(page.rows.slice(0, 1)) }, statements)).toMatchFileSnapshot(
        file(`tz-flows-${resolution}`),
      );
    },
  );

  it.each(['1D', '1W'] as Resolution[])('flow aggregates at %s in local time', async (resolution) => {
    const { db: rec, statements } = recording(db);
    const [z, b] = [await zones(), await borders()];
    const ci = await findCiCounts(
      rec,
      RANGE,
      z.map((r) => r.id),
      resolution,
      { zoneIds: z.map((r) => r.id), names: z.map((r) => NAMES[r.code]!) },
    );
    const types = await findFlowTypeCounts(
      rec,
      { ...RANGE, borderIds: b.map((r) => r.id), flowTypes: [] },
      resolution,
      {
        borderIds: b.map((r) => r.id),
        names: b.map((r) => NAMES[r.code]!),
      },
    );
    const hoursOf = (n: number, r: { hours?: number; totalHours?: number }) => n + (r.hours ?? r.totalHours ?? 0);
    expect(ci.reduce(hoursOf, 0)).toBeGreaterThan(0);
    await expect(
      snapshot(
        { ciRows: ci.length, ciHours: ci.reduce(hoursOf, 0), typeRows: types.length, hours: types.reduce(hoursOf, 0) },
        statements,
      ),
    ).toMatchFileSnapshot(file(`tz-flow-aggregates-${resolution}`));
  });
});
