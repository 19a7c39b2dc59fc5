/**
 * Border-hours that exist because of an outage alone: an hour an outage of the border overlaps has
 * a `border_hour` row even when no flow, schedule or NTC was published for it (facts null), so the
 * classification (outage before "not assessed", both bases) and the rollups count it. Hours UTC.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, run } from '../../db/executor.js';

/** Whole hours [from, to) UTC of one border. */
export interface BorderHourWindow {
  readonly borderId: number;
  readonly from: Date;
  readonly to: Date;
}

/**
 * Adds a row with no facts for every hour of the window that an outage of the border overlaps and
 * that has no row yet. @returns the number of rows added.
 */
export async function addOutageHours(db: Executor, w: BorderHourWindow): Promise<number> {
  const rows = await run<{ n: number }>(
    db,
    'addOutageHours',
    Prisma.sql`
    WITH added AS (
      INSERT INTO border_hour (border_id, ts)
      SELECT DISTINCT ${w.borderId}::int2, h
      FROM border_outage o,
           generate_series(greatest(date_trunc('hour', o.starts_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', ${w.from.toISOString()}::timestamptz),
                           least(o.ends_at, ${w.to.toISOString()}::timestamptz) - interval '1 microsecond',
                           interval '1 hour') AS h
      WHERE o.border_id = ${w.borderId} AND o.starts_at < ${w.to.toISOString()}::timestamptz
        AND o.ends_at > ${w.from.toISOString()}::timestamptz
      ON CONFLICT (border_id, ts) DO NOTHING
      RETURNING 1)
    SELECT count(*)::int AS n FROM added`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Deletes the rows of the window that have no facts and that no outage of the border overlaps any
 * more (an outage revised or withdrawn). @returns the number of rows deleted.
 */
export async function dropUncoveredOutageHours(db: Executor, w: BorderHourWindow): Promise<number> {
  const rows = await run<{ n: number }>(
    db,
    'dropUncoveredOutageHours',
    Prisma.sql`
    WITH dropped AS (
      DELETE FROM border_hour h
      WHERE h.border_id = ${w.borderId} AND h.ts >= ${w.from.toISOString()}::timestamptz AND h.ts < ${w.to.toISOString()}::timestamptz
        AND h.physical_ab_mw IS NULL AND h.physical_ba_mw IS NULL AND h.scheduled_ab_mw IS NULL
        AND h.scheduled_ba_mw IS NULL AND h.ntc_ab_mw IS NULL AND h.ntc_ba_mw IS NULL
        AND h.physical_source IS NULL AND h.scheduled_source IS NULL AND h.ntc_source IS NULL
        AND NOT EXISTS (SELECT 1 FROM border_outage o WHERE o.border_id = h.border_id
                        AND o.starts_at < h.ts + interval '1 hour' AND o.ends_at > h.ts)
      RETURNING 1)
    SELECT count(*)::int AS n FROM dropped`,
  );
  return rows[0]?.n ?? 0;
}
