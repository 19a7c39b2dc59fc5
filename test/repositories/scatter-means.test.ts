import { describe, expect } from 'vitest';
import { findScatter } from '../../src/repositories/flows/stats.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

/**
 * One day of DE_LU->FR in three daily rollup rows (one per flow type) of one hour each: 0.2 + 0.4 +
 * 74.4 MW, a mean of exactly 25 MW, the edge between the 0 and 50 MW bins. Added as floats in four of
 * the six orders the sum is 75.00000000000001 (a mean of 25.000000000000004, the 50 MW bin); the
 * price difference is 10 EUR/MWh every hour. The plan sums the rows in the order it reads them.
 */
const FLOWS_MW = [0.2, 0.4, 74.4] as const;
const TYPES = ['convergence', 'congestion', 'counter_intuitive'] as const;

const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

describe.each(TEST_BACKENDS)('scatter bucket means on a bin edge (%s)', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  it.each(ORDERS)(
    'fall in the bin of the exact mean whatever order the rows are summed in (flows %i, %i, %i by flow type)',
    async (...order) => {
      const [border] = await db.rawQuery<{ id: number }>(
        `SELECT b.id FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
         WHERE za.code = 'DE_LU' AND zb.code = 'FR'`,
      );
      await db.rawQuery('DELETE FROM border_daily');
      for (const [k, i] of order.entries()) {
        const [type, mw] = [TYPES[k]!, FLOWS_MW[i]!];
        await db.rawQuery(
          `INSERT INTO border_daily (border_id, day, flow_type, export_from_a, hours, interpolated_hours, derived_hours,
             net_flow_sum, price_hours, price_from_sum, price_to_sum, capacity_sum, capacity_hours, sources)
           VALUES ($1, '2025-03-04', $2::"FlowType", true, 1, 0, 0, $3, 1, 40, 50, 0, 0, '{}')`,
          [border!.id, type, mw],
        );
      }
      const f = {
        from: new Date('2025-03-04T00:00:00Z'),
        to: new Date('2025-03-05T00:00:00Z'),
        borderIds: [border!.id],
        flowTypes: [],
      };
      const rows = await findScatter(db, f, [{ borderId: border!.id, flip: false, name: 'DE_LU->FR' }], '1D', {
        flowBinMw: 50,
        priceBin: 5,
      });
      // round(25 / 50) rounds half to even: the 0 bin.
      expect(rows).toEqual([{ zoneFrom: 'DE_LU', zoneTo: 'FR', netFlowMw: 0, priceDelta: 10, count: 1 }]);
    },
  );
});
