import { describe, expect, it } from 'vitest';
import type { Resolution } from '../../src/domain/resolution.js';
import { findFlowTypeCounts, flowTypeCountBatches } from '../../src/repositories/flows/aggregates.js';
import { TEST_BACKENDS, useTestDatabase } from '../support/db.js';

/** Partial first and last days and weeks, across the end of summer time (2025-10-26). */
const RANGE = { from: new Date('2025-09-23T05:00:00Z'), to: new Date('2025-11-04T07:00:00Z') };
const NAMES: Record<string, string> = { DE_LU: 'Europe/Berlin', FI: 'Europe/Helsinki', PT: 'Europe/Lisbon' };

describe.each(TEST_BACKENDS)('flow-type counts read in batches (%s)', (kind) => {
  const db = useTestDatabase(kind, 'demo');

  // 43 days (2025-09-23 to 2025-11-04) in 43 or 11 batches; 7 ISO weeks (from 2025-09-22) in 7 or 4.
  it.each([
    ['1D', 1, 43],
    ['1D', 4, 11],
    ['1W', 1, 7],
    ['1W', 2, 4],
  ] as [Resolution, number, number][])(
    'equal the counts read at once at %s, %i bucket(s) a batch',
    async (resolution, size, count) => {
      const f = { ...RANGE, borderIds: null, flowTypes: [] };
      const whole = await findFlowTypeCounts(db(), f, resolution);
      const batches: number[] = [];
      const rows = [];
      for await (const batch of flowTypeCountBatches(db(), f, resolution, size)) {
        batches.push(batch.length);
        rows.push(...batch);
      }
      expect(whole.length).toBeGreaterThan(59 * 6);
      expect(rows).toEqual(whole);
      expect(batches).toHaveLength(count);
      expect(Math.max(...batches)).toBeLessThanOrEqual(59 * size);
    },
  );

  it.each([
    ['1D', 1],
    ['1D', 3],
    ['1W', 1],
  ] as [Resolution, number][])(
    'equal the counts read at once in local days or weeks at %s, %i bucket(s) a batch',
    async (resolution, size) => {
      const b = await db().rawQuery<{ id: number; code: string }>(
        `SELECT b.id, za.code FROM border b JOIN zone za ON za.id = b.zone_a_id WHERE za.code IN ('DE_LU', 'FI', 'PT') ORDER BY b.id`,
      );
      const tz = { borderIds: b.map((r) => r.id), names: b.map((r) => NAMES[r.code]!) };
      const f = { ...RANGE, borderIds: tz.borderIds, flowTypes: [] };
      const whole = await findFlowTypeCounts(db(), f, resolution, tz);
      const rows = await flowTypeCountBatches(db(), f, resolution, size, tz).all();
      expect(whole.length).toBeGreaterThan(b.length * 6);
      expect(rows).toEqual(whole);
    },
  );
});
