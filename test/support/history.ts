/**
 * Stores the historical zones and their borders (src/domain/catalogue-history.ts) in a test
 * database whose catalogue does not hold them yet. Idempotent: rows already stored are kept.
 */
import type { Database } from '../../src/db/client.js';
import { HISTORICAL_BORDERS, HISTORICAL_ZONES } from '../../src/domain/catalogue-history.js';

/** Inserts the historical zones, then every historical border whose two zones are stored. */
export async function storeHistoricalZones(db: Database): Promise<void> {
  await db.rawQuery(
    `INSERT INTO zone (code, eic, name, time_zone)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT (code) DO NOTHING`,
    [
      HISTORICAL_ZONES.map((z) => z.code),
      HISTORICAL_ZONES.map((z) => z.eic),
      HISTORICAL_ZONES.map((z) => z.name),
      HISTORICAL_ZONES.map((z) => z.timeZone),
    ],
  );
  await db.rawQuery(
    `INSERT INTO border (zone_a_id, zone_b_id)
     SELECT za.id, zb.id FROM unnest($1::text[], $2::text[]) AS p(a, b)
     JOIN zone za ON za.code = p.a JOIN zone zb ON zb.code = p.b
     ON CONFLICT (zone_a_id, zone_b_id) DO NOTHING`,
    [HISTORICAL_BORDERS.map(([a]) => a), HISTORICAL_BORDERS.map(([, b]) => b)],
  );
}
