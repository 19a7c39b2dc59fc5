/**
 * The `price_daily` rollup: per zone and UTC day, time-weighted sums of `price_point`
 * (weighted_sum = Σ price × period_minutes in EUR/MWh·min, minutes = Σ period_minutes), so a daily
 * mean price is weighted_sum / minutes.
 */
import { widenToDays } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { utcDay } from '../sql/time.js';
import { type Executor, query, type Sql } from '../sql/executor.js';

/** Which days to recompute: every UTC day overlapping [from, to), optionally for some zones only. */
export interface RollupWindow {
  readonly from: Date;
  readonly to: Date;
  readonly zoneIds?: readonly number[];
}

/**
 * Recomputes `price_daily` for the UTC days overlapping the window in ONE statement: upserts the
 * aggregate of every (zone, day) that has points and deletes rollup days whose points vanished.
 * Sums run in numeric, so results do not depend on row order (reloading identical points leaves
 * the rollup bit-for-bit unchanged). Loaders call it inside their transaction.
 * @returns the number of rollup rows written.
 */
export async function refreshPriceDaily(db: Executor, window: RollupWindow): Promise<number> {
  const days = widenToDays(window);
  const [from, to] = [days.from.toISOString(), days.to.toISOString()];
  const zones = window.zoneIds ? [...window.zoneIds] : null;
  const rows = await query<{ written: number }>(
    db,
    `WITH agg AS (
       SELECT zone_id, ${utcDay(Prisma.sql`ts`).text} AS day,
              sum(price_eur_mwh::numeric * period_minutes)::float8 AS weighted_sum,
              sum(period_minutes)::int AS minutes,
              bool_or(interpolated) AS interpolated,
              array_agg(DISTINCT source ORDER BY source) AS sources
       FROM price_point
       WHERE ts >= $1::timestamptz AND ts < $2::timestamptz AND ($3::int2[] IS NULL OR zone_id = ANY($3::int2[]))
       GROUP BY 1, 2
     ), removed AS (
       DELETE FROM price_daily d
       WHERE d.day >= ${utcDay(Prisma.sql`$1::timestamptz`).text} AND d.day < ${utcDay(Prisma.sql`$2::timestamptz`).text}
         AND ($3::int2[] IS NULL OR d.zone_id = ANY($3::int2[]))
         AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.zone_id = d.zone_id AND agg.day = d.day)
     ), written AS (
       INSERT INTO price_daily (zone_id, day, weighted_sum, minutes, interpolated, sources)
       SELECT zone_id, day, weighted_sum, minutes, interpolated, sources FROM agg
       ON CONFLICT (zone_id, day) DO UPDATE SET weighted_sum = excluded.weighted_sum, minutes = excluded.minutes,
         interpolated = excluded.interpolated, sources = excluded.sources
       RETURNING 1
     )
     SELECT count(*)::int AS written FROM written`,
    [from, to, zones],
  );
  return rows[0]?.written ?? 0;
}

/** One `price_daily` row computed outside the database (source `demo`); EUR/MWh·min and minutes. */
export interface PriceDayRow {
  readonly zoneId: number;
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly weightedSum: number;
  readonly minutes: number;
  readonly interpolated: boolean;
}

/**
 * Appends demo `price_daily` rows to a table holding none of their keys (a load into a table
 * emptied in its transaction), in one statement; a duplicate key fails the statement.
 */
export async function appendDemoPriceDays(sql: Sql, rows: readonly PriceDayRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(
    `INSERT INTO price_daily (zone_id, day, weighted_sum, minutes, interpolated, sources)
     SELECT z, d, w, m, i, '{demo}' FROM unnest($1::int2[], $2::date[], $3::float8[], $4::int[], $5::bool[]) AS u(z, d, w, m, i)`,
    [rows.map((r) => r.zoneId), rows.map((r) => r.day), rows.map((r) => r.weightedSum), rows.map((r) => r.minutes), rows.map((r) => r.interpolated)],
  );
}
