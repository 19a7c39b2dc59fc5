import { describe, expect } from 'vitest';
import { HOUR_MS } from '../../src/domain/calendar.js';
import type { BorderRecord } from '../../src/domain/catalogue.js';
import { DEFAULT_THRESHOLDS } from '../../src/domain/classification.js';
import { loadBorderHourRows, loadPriceRows } from '../../src/ingest/items.js';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import { refreshFlowRollups } from '../../src/repositories/flows/rollup.js';
import type { BorderHourRow, PricePointRow } from '../../src/repositories/ingest/load.js';
import { inTransaction } from '../../src/db/executor.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

/** Every flow rollup table as sorted text rows, sums rounded to 1e-6 (summation order may differ between plans). */
const ROLLUPS_SQL = {
  border_daily: `SELECT border_id, day::text, flow_type::text, export_from_a, hours, interpolated_hours, derived_hours,
      round(net_flow_sum::numeric, 6)::text AS net, price_hours, round(price_from_sum::numeric, 6)::text AS pf,
      round(price_to_sum::numeric, 6)::text AS pt, round(capacity_sum::numeric, 6)::text AS cap, capacity_hours,
      array_to_string(sources, ',') AS sources
    FROM border_daily ORDER BY 1, 2, 3, 4`,
  border_weekly: `SELECT border_id, week::text, flow_type::text, export_from_a, hours, interpolated_hours, derived_hours,
      round(net_flow_sum::numeric, 6)::text AS net, price_hours, round(price_from_sum::numeric, 6)::text AS pf,
      round(price_to_sum::numeric, 6)::text AS pt, round(capacity_sum::numeric, 6)::text AS cap, capacity_hours,
      array_to_string(sources, ',') AS sources
    FROM border_weekly ORDER BY 1, 2, 3, 4`,
  zone_daily: 'SELECT zone_id, day::text, ci_hours, assessed_hours FROM zone_daily ORDER BY 1, 2',
};

const hours = (from: string, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(from) + i * HOUR_MS));

describe.each(TEST_BACKENDS)('flow rollups refreshed for the loaded borders only (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  async function rollups(): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const [table, sql] of Object.entries(ROLLUPS_SQL)) out[table] = await db.rawQuery(sql);
    return out;
  }

  it('equal a full recomputation after flow windows of two borders of one zone and a price window', async () => {
    const catalogue = await readCatalogue(db);
    const ctx = { catalogue, thresholds: DEFAULT_THRESHOLDS };
    const before = await rollups();
    const assessed = new Set(before.border_daily!.map((r) => (r as { border_id: number }).border_id));
    const withData = (code: string) => catalogue.bordersOf(code).filter((b) => assessed.has(b.id));
    const zone = catalogue.zones.find((z) => withData(z.code).length >= 3)!;
    const [first, second] = withData(zone.code) as [BorderRecord, BorderRecord];
    // Flows reversed hour by hour (A->B then B->A at 3 GW) across a week boundary (Monday 2025-09-29)
    // and partial days at both ends: classifications, daily and weekly rows and zone counts all change.
    const flows = (borderId: number, from: string, n: number): BorderHourRow[] =>
      hours(from, n).map((ts, i) => ({
        borderId,
        ts,
        physicalAbMw: i % 2 ? 0 : 3000,
        physicalBaMw: i % 2 ? 3000 : 0,
        physicalSource: 'entsoe',
      }));
    const prices: PricePointRow[] = hours('2025-09-23T07:00:00Z', 30).map((ts, i) => ({
      zoneId: zone.id,
      ts,
      periodMinutes: 60,
      priceEurMwh: i % 3 ? 450 : -20,
      interpolated: false,
      source: 'entsoe',
    }));
    await inTransaction(db, (sql) =>
      loadBorderHourRows(sql, ctx, first.id, flows(first.id, '2025-09-27T13:00:00Z', 80), 'physical'),
    );
    await inTransaction(db, (sql) =>
      loadBorderHourRows(sql, ctx, second.id, flows(second.id, '2025-09-28T21:00:00Z', 50), 'physical'),
    );
    await inTransaction(db, (sql) => loadPriceRows(sql, ctx, zone, prices));
    const scoped = await rollups();
    for (const table of Object.keys(ROLLUPS_SQL)) expect(scoped[table]).not.toEqual(before[table]);

    const [span] = await db.rawQuery<{ first: Date; last: Date }>(
      'SELECT min(ts) AS first, max(ts) AS last FROM border_hour',
    );
    await inTransaction(db, (sql) =>
      refreshFlowRollups(sql, { from: span!.first, to: new Date(span!.last.getTime() + HOUR_MS) }),
    );
    const full = await rollups();
    expect(full.border_daily!.length).toBeGreaterThan(59 * 14);
    expect(scoped).toEqual(full);
  });
});
