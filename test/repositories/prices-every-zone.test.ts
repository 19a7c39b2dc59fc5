/**
 * A price query for every zone of the catalogue reads by time alone, but answers only the
 * catalogue's zones: a zone that another process stored after this one read its catalogue (a newer
 * release's ingestion on a shared database) is left out, rows and count alike. The zone and its
 * rows are removed again after each case.
 */
import { describe, expect } from 'vitest';
import { countPrices, findPrices, type PriceQuery } from '../../src/repositories/prices/rows.js';
import type { PriceRecord } from '../../src/domain/records.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

const RANGE = { from: new Date('2025-10-10T05:00:00Z'), to: new Date('2025-10-12T07:00:00Z') };

describe.each(TEST_BACKENDS)('prices of every catalogue zone on %s', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  it.each(['native', '1H', '1D', '1W'] as const)(
    'at %s leave out a zone stored after the catalogue was read',
    async (resolution) => {
      const catalogue = (await db.rawQuery<{ id: number }>('SELECT id FROM zone')).map((r) => r.id);
      const q: PriceQuery = { zoneIds: catalogue, allZones: true, resolution, ...RANGE };
      const before = await findPrices(db, q);
      const [zone] = await db.rawQuery<{ id: number }>(
        `INSERT INTO zone (code, eic, name, time_zone) VALUES ('ZZ_NEW', '10Y-TEST-NEW---Z', 'Later zone', 'Europe/Paris') RETURNING id`,
      );
      let outcome: { stored: number; rows: PriceRecord[]; total: number };
      try {
        await db.rawQuery(
          `INSERT INTO price_point (zone_id, ts, period_minutes, price_eur_mwh, source)
         SELECT $1, ts, 60, 42, 'demo' FROM generate_series($2::timestamptz, $3::timestamptz - interval '1 hour', interval '1 hour') ts`,
          [zone!.id, RANGE.from, RANGE.to],
        );
        await db.rawQuery(
          `INSERT INTO price_daily (zone_id, day, weighted_sum, minutes, interpolated) VALUES ($1, '2025-10-11', 42 * 1440, 1440, false)`,
          [zone!.id],
        );
        const [stored] = await db.rawQuery<{ n: number }>(
          'SELECT count(*)::int AS n FROM price_point WHERE zone_id = $1',
          [zone!.id],
        );
        outcome = { stored: stored!.n, rows: await findPrices(db, q), total: await countPrices(db, q) };
      } finally {
        await db.rawQuery('DELETE FROM price_daily WHERE zone_id = $1', [zone!.id]);
        await db.rawQuery('DELETE FROM price_point WHERE zone_id = $1', [zone!.id]);
        await db.rawQuery('DELETE FROM zone WHERE id = $1', [zone!.id]);
      }
      expect(outcome!.stored).toBe(50);
      expect(outcome!.rows.some((r) => r.zone === 'ZZ_NEW')).toBe(false);
      expect(outcome!.rows).toEqual(before);
      expect(outcome!.total).toBe(before.length);
    },
  );
});
