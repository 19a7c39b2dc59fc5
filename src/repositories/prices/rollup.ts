/**
 * The `price_daily` rollup: per zone and UTC day, time-weighted sums of `price_point`
 * (weighted_sum = Σ price × period_minutes in EUR/MWh·min, minutes = Σ period_minutes), so a daily
 * mean price is weighted_sum / minutes.
 */
import { widenToDays } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { refreshPriceHourly } from './hourly.js';
import { utcDay } from '../sql/time.js';
import { type Executor, run, type Sql } from '../../db/executor.js';

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
 * the rollup bit-for-bit unchanged). Loaders call it inside their transaction. The `price_hourly`
 * rollup of the same days is refreshed with it (prices/hourly.ts), so every loader keeps both.
 * @returns the number of `price_daily` rows written.
 */
export async function refreshPriceDaily(db: Executor, window: RollupWindow): Promise<number> {
  const days = widenToDays(window);
  const [from, to] = [days.from.toISOString(), days.to.toISOString()];
  const zones = window.zoneIds ? [...window.zoneIds] : null;
  const inZones = (zone: Prisma.Sql) => Prisma.sql`(${zones}::int2[] IS NULL OR ${zone} = ANY(${zones}::int2[]))`;
  const rows = await run<{ written: number }>(
    db,
    'refreshPriceDaily',
    Prisma.sql`
     WITH agg AS (
       SELECT zone_id, ${utcDay(Prisma.sql`ts`)} AS day,
              sum(price_eur_mwh::numeric * period_minutes)::float8 AS weighted_sum,
              sum(period_minutes)::int AS minutes,
              bool_or(interpolated) AS interpolated,
              array_agg(DISTINCT source ORDER BY source) AS sources
       FROM price_point
       WHERE ts >= ${from}::timestamptz AND ts < ${to}::timestamptz AND ${inZones(Prisma.sql`zone_id`)}
       GROUP BY 1, 2
     ), removed AS (
       DELETE FROM price_daily d
       WHERE d.day >= ${utcDay(Prisma.sql`${from}::timestamptz`)} AND d.day < ${utcDay(Prisma.sql`${to}::timestamptz`)}
         AND ${inZones(Prisma.sql`d.zone_id`)}
         AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.zone_id = d.zone_id AND agg.day = d.day)
     ), written AS (
       INSERT INTO price_daily (zone_id, day, weighted_sum, minutes, interpolated, sources)
       SELECT zone_id, day, weighted_sum, minutes, interpolated, sources FROM agg
       ON CONFLICT (zone_id, day) DO UPDATE SET weighted_sum = excluded.weighted_sum, minutes = excluded.minutes,
         interpolated = excluded.interpolated, sources = excluded.sources
       RETURNING 1
     )
     SELECT count(*)::int AS written FROM written`,
  );
  await refreshPriceHourly(db, { ...days, zoneIds: window.zoneIds });
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
  await run(
    sql,
    'appendDemoPriceDays',
    Prisma.sql`INSERT INTO price_daily (zone_id, day, weighted_sum, minutes, interpolated, sources)
     SELECT z, d, w, m, i, '{demo}' FROM unnest(${rows.map((r) => r.zoneId)}::int2[], ${rows.map((r) => r.day)}::date[],
           ${rows.map((r) => r.weightedSum)}::float8[], ${rows.map((r) => r.minutes)}::int[],
           ${rows.map((r) => r.interpolated)}::bool[]) AS u(z, d, w, m, i)`,
  );
}
