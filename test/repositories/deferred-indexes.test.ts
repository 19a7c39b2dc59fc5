/**
 * Indexes dropped around a bulk load come back exactly as the migrations defined them, a key
 * broken by the loaded rows fails the rebuild, and a rolled-back load leaves the indexes in place.
 */
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { dropIndexes, restoreIndexes } from '../../src/repositories/ingest/deferred-indexes.js';
import { appendPrices } from '../../src/repositories/ingest/load.js';
import { inTransaction } from '../../src/db/executor.js';
import { TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';

const INDEXES_SQL = `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN ('price_point', 'border_hour') ORDER BY indexname`;

const indexes = (db: Database) => db.rawQuery<{ indexname: string; indexdef: string }>(INDEXES_SQL);

async function zoneId(db: Database): Promise<number> {
  const [row] = await db.rawQuery<{ id: number }>('SELECT min(id)::int AS id FROM zone');
  return row!.id;
}

describe.each(TEST_BACKENDS)('deferred index builds (%s)', (kind) => {
  it.override({ backend: kind, seed: 'empty' });

  it('rebuilds the primary keys and indexes of the tables as they were, and the rows load in between', async ({
    fileDb: db,
  }) => {
    const before = await indexes(db);
    expect(before.map((r) => r.indexname)).toEqual([
      'border_hour_border_id_signed_ab_mw_ts_idx',
      'border_hour_pkey',
      'border_hour_ts_border_id_idx',
      'price_point_pkey',
      'price_point_ts_zone_id_idx',
    ]);
    const zone = await zoneId(db);
    const rows = [0, 1].map((h) => ({
      zoneId: zone,
      ts: new Date(Date.UTC(2025, 0, 1, h)),
      periodMinutes: 60,
      priceEurMwh: 10 + h,
      interpolated: false,
      source: 'demo' as const,
    }));
    await inTransaction(db, async (sql) => {
      const dropped = await dropIndexes(sql, ['price_point', 'border_hour']);
      expect(dropped.statements).toHaveLength(5);
      expect((await sql.query(INDEXES_SQL)).length).toBe(0);
      await appendPrices(sql, rows);
      await restoreIndexes(sql, dropped);
    });
    expect(await indexes(db)).toEqual(before);
    const stored = await db.rawQuery<{ n: number }>('SELECT count(*)::int AS n FROM price_point WHERE zone_id = $1', [
      zone,
    ]);
    expect(stored[0]?.n).toBe(2);
    await db.rawQuery('DELETE FROM price_point');
  });

  it('fails the rebuild on a duplicate key and the rollback keeps the indexes and no row', async ({ fileDb: db }) => {
    const before = await indexes(db);
    const zone = await zoneId(db);
    const row = {
      zoneId: zone,
      ts: new Date(Date.UTC(2025, 0, 2)),
      periodMinutes: 60,
      priceEurMwh: 1,
      interpolated: false,
      source: 'demo' as const,
    };
    const load = inTransaction(db, async (sql) => {
      const dropped = await dropIndexes(sql, ['price_point']);
      await appendPrices(sql, [row]);
      await appendPrices(sql, [row]);
      await restoreIndexes(sql, dropped);
    });
    await expect(load).rejects.toThrow(/price_point_pkey|duplicate|unique/i);
    expect(await indexes(db)).toEqual(before);
    expect((await db.rawQuery<{ n: number }>('SELECT count(*)::int AS n FROM price_point'))[0]?.n).toBe(0);
  });
});
