import { DAY_MS, WEEK_MS, isoWeekStart } from '../../domain/calendar.js';
import { isoDay, widenToDays } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { HOUR_AGGREGATES } from './daily-sums.js';
import { DIR } from './filter.js';
import { dayBucket, utcDay } from '../sql/time.js';
import { type Executor, run } from '../../db/executor.js';

/**
 * Which rows a refresh rewrites: every border and zone (`null`), or the given borders, the zones at
 * either end of them, and (for those zones' hours) every border of those zones.
 */
type Scope = readonly number[] | null;

/** `AND <column> = ANY(borders)` for a border scope, nothing for all. */
const inBorders = (scope: Scope, column: Prisma.Sql) =>
  scope ? Prisma.sql`AND ${column} = ANY(${[...scope]}::int2[])` : Prisma.empty;

/** The zones at either end of the scope's borders, as an array (an init plan, usable as an index condition). */
const zonesOf = (borders: readonly number[]) => Prisma.sql`ARRAY(
  SELECT zone_a_id FROM border WHERE id = ANY(${[...borders]}::int2[])
  UNION SELECT zone_b_id FROM border WHERE id = ANY(${[...borders]}::int2[]))`;

/** `AND <column> = ANY(zones of the scope)`, nothing for all. */
const inZones = (scope: Scope, column: Prisma.Sql) =>
  scope ? Prisma.sql`AND ${column} = ANY(${zonesOf(scope)})` : Prisma.empty;

const borderDaily = (from: Date, to: Date, scope: Scope) => Prisma.sql`
  INSERT INTO border_daily (border_id, day, flow_type, export_from_a, hours, interpolated_hours, derived_hours,
                            net_flow_sum, price_hours, price_from_sum, price_to_sum, capacity_sum, capacity_hours, sources)
  SELECT h.border_id, ${utcDay(Prisma.sql`h.ts`)}, h.flow_type, ${DIR}, ${HOUR_AGGREGATES}
  FROM border_hour h
  WHERE h.ts >= ${from} AND h.ts < ${to} AND h.flow_type IS NOT NULL ${inBorders(scope, Prisma.sql`h.border_id`)}
  GROUP BY 1, 2, 3, 4`;

/**
 * The hours of the scope's zones read every border of those zones (their other borders included),
 * through border_hour's primary key (border, ts).
 */
function scopedZoneHours(from: Date, to: Date, scope: Scope): Prisma.Sql {
  if (!scope) return zoneHours(from, to);
  const zones = zonesOf(scope);
  return zoneHoursWhere(
    from,
    to,
    Prisma.sql`AND z.zone_id = ANY(${zones})
      AND h.border_id = ANY(ARRAY(SELECT id FROM border WHERE zone_a_id = ANY(${zones}) OR zone_b_id = ANY(${zones})))`,
  );
}

const zoneDaily = (from: Date, to: Date, scope: Scope) => Prisma.sql`
  INSERT INTO zone_daily (zone_id, day, ci_hours, assessed_hours)
  SELECT zh.zone_id, ${utcDay(Prisma.sql`zh.ts`)}, count(*) FILTER (WHERE zh.ci)::int, count(*)::int
  FROM (${scopedZoneHours(from, to, scope)}) zh
  GROUP BY 1, 2`;

/**
 * Per zone and hour over [from, to): `ci` is true when a counter-intuitive flow left the zone at
 * any of its borders; one row exists when at least one of its borders was assessed.
 */
export function zoneHours(from: Date, to: Date, zoneIds: readonly number[] = []): Prisma.Sql {
  const zones = zoneIds.length ? Prisma.sql`AND z.zone_id = ANY(${zoneIds.map(Number)}::smallint[])` : Prisma.empty;
  return zoneHoursWhere(from, to, zones);
}

function zoneHoursWhere(from: Date, to: Date, zones: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT z.zone_id, h.ts,
           bool_or(h.flow_type = 'counter_intuitive'
                   AND ((h.export_from_a AND z.zone_id = b.zone_a_id) OR (NOT h.export_from_a AND z.zone_id = b.zone_b_id))) AS ci
    FROM border_hour h
    JOIN border b ON b.id = h.border_id
    CROSS JOIN LATERAL (VALUES (b.zone_a_id), (b.zone_b_id)) AS z(zone_id)
    WHERE h.ts >= ${from} AND h.ts < ${to} AND h.flow_type IS NOT NULL ${zones}
    GROUP BY 1, 2`;
}

/** The Monday (`date`) of the ISO week of border_daily's `d.day`. */
const WEEK_OF_DAY = Prisma.sql`${dayBucket('1W', Prisma.sql`d.day`)}::date`;

/**
 * border_weekly rows of the ISO weeks in [from, to) (Mondays, as `YYYY-MM-DD`), summed from the
 * border_daily rows of those weeks, sources merged. Migration 20261122054236_border_weekly
 * backfills existing databases with the same statement over all days.
 */
const borderWeekly = (from: string, to: string, scope: Scope) => Prisma.sql`
  INSERT INTO border_weekly (border_id, week, flow_type, export_from_a, hours, interpolated_hours, derived_hours,
                             net_flow_sum, price_hours, price_from_sum, price_to_sum, capacity_sum, capacity_hours, sources)
  SELECT s.border_id, s.week, s.flow_type, s.export_from_a, s.hours, s.interpolated_hours, s.derived_hours, s.net_flow_sum,
         s.price_hours, s.price_from_sum, s.price_to_sum, s.capacity_sum, s.capacity_hours, coalesce(src.sources, '{}')
  FROM (SELECT d.border_id, ${WEEK_OF_DAY} AS week, d.flow_type, d.export_from_a,
               sum(d.hours)::int AS hours, sum(d.interpolated_hours)::int AS interpolated_hours,
               sum(d.derived_hours)::int AS derived_hours, sum(d.net_flow_sum) AS net_flow_sum,
               sum(d.price_hours)::int AS price_hours, sum(d.price_from_sum) AS price_from_sum,
               sum(d.price_to_sum) AS price_to_sum, sum(d.capacity_sum) AS capacity_sum,
               sum(d.capacity_hours)::int AS capacity_hours
        FROM border_daily d WHERE d.day >= ${from}::date AND d.day < ${to}::date ${inBorders(scope, Prisma.sql`d.border_id`)}
        GROUP BY 1, 2, 3, 4) s
  LEFT JOIN (SELECT d.border_id, ${WEEK_OF_DAY} AS week, d.flow_type, d.export_from_a,
                    array_agg(DISTINCT u.source ORDER BY u.source) AS sources
             FROM border_daily d CROSS JOIN LATERAL unnest(d.sources) AS u(source)
             WHERE d.day >= ${from}::date AND d.day < ${to}::date ${inBorders(scope, Prisma.sql`d.border_id`)}
             GROUP BY 1, 2, 3, 4) src
    ON src.border_id = s.border_id AND src.week = s.week AND src.flow_type = s.flow_type AND src.export_from_a = s.export_from_a`;

/**
 * border_period_count rows of the calendar months in [from, to) (first days, `YYYY-MM-DD`): per
 * month, border and flow type, the rows of the physical-basis flow queries whose datetime falls in
 * the month (border-hours and border_daily rows of its days, border_weekly rows of the weeks whose
 * Monday falls in it), in key order (a period's rows share a few heap pages). Migration
 * 20261127142000_border_period_count backfills existing databases with the same statement over all
 * months.
 */
const borderMonthCounts = (from: string, to: string) => Prisma.sql`
  INSERT INTO border_period_count (span_months, start, border_id, flow_type, hours, derived_hours, days, weeks, week_derived_hours)
  SELECT 1, x.start, x.border_id, x.flow_type, sum(x.hours)::int, sum(x.derived_hours)::int, sum(x.days)::int,
         sum(x.weeks)::int, sum(x.week_derived_hours)::int
  FROM (SELECT date_trunc('month', d.day::timestamp)::date AS start, d.border_id, d.flow_type, sum(d.hours) AS hours,
               sum(d.derived_hours) AS derived_hours, count(*) AS days, 0 AS weeks, 0 AS week_derived_hours
        FROM border_daily d WHERE d.day >= ${from}::date AND d.day < ${to}::date
        GROUP BY 1, 2, 3
        UNION ALL
        SELECT date_trunc('month', w.week::timestamp)::date, w.border_id, w.flow_type, 0, 0, 0, count(*), sum(w.derived_hours)
        FROM border_weekly w WHERE w.week >= ${from}::date AND w.week < ${to}::date
        GROUP BY 1, 2, 3) x
  GROUP BY 2, 3, 4
  ORDER BY 2, 3, 4`;

/** border_period_count rows of the calendar years in [from, to) (1 January, `YYYY-MM-DD`): the sums of their months' rows. */
const borderYearCounts = (from: string, to: string) => Prisma.sql`
  INSERT INTO border_period_count (span_months, start, border_id, flow_type, hours, derived_hours, days, weeks, week_derived_hours)
  SELECT 12, date_trunc('year', c.start::timestamp)::date, c.border_id, c.flow_type, sum(c.hours)::int,
         sum(c.derived_hours)::int, sum(c.days)::int, sum(c.weeks)::int, sum(c.week_derived_hours)::int
  FROM border_period_count c WHERE c.span_months = 1 AND c.start >= ${from}::date AND c.start < ${to}::date
  GROUP BY 2, 3, 4
  ORDER BY 2, 3, 4`;

/** Recomputes border_period_count for the months, then the years, touching [from, to) (`YYYY-MM-DD`). */
async function refreshPeriodCounts(db: Executor, from: string, to: string): Promise<void> {
  const last = new Date(`${to}T00:00:00Z`).getTime() - DAY_MS;
  const [months, years] = [calendarWindow(from, last, 1), calendarWindow(from, last, 12)];
  const remove = (spanMonths: number, [a, b]: [string, string]) => Prisma.sql`
    DELETE FROM border_period_count WHERE span_months = ${spanMonths} AND start >= ${a}::date AND start < ${b}::date`;
  await run(db, 'deleteBorderMonthCounts', remove(1, months));
  await run(db, 'insertBorderMonthCounts', borderMonthCounts(...months));
  await run(db, 'deleteBorderYearCounts', remove(12, years));
  await run(db, 'insertBorderYearCounts', borderYearCounts(...years));
}

/** The calendar months (`spanMonths` 1) or years (12) from the one holding `from` (`YYYY-MM-DD`) to the one holding `last` (ms), as [first day, first day after). */
function calendarWindow(from: string, last: number, spanMonths: 1 | 12): [string, string] {
  const a = new Date(`${from}T00:00:00Z`);
  const b = new Date(last);
  const start =
    spanMonths === 1 ? Date.UTC(a.getUTCFullYear(), a.getUTCMonth(), 1) : Date.UTC(a.getUTCFullYear(), 0, 1);
  const end =
    spanMonths === 1 ? Date.UTC(b.getUTCFullYear(), b.getUTCMonth() + 1, 1) : Date.UTC(b.getUTCFullYear() + 1, 0, 1);
  return [isoDay(new Date(start)), isoDay(new Date(end))];
}

/** The ISO weeks (Monday to Monday, `YYYY-MM-DD`) touching the whole UTC days [from, to). */
function weekWindow(from: Date, to: Date): [string, string] {
  const first = isoWeekStart(from.getTime());
  const last = isoWeekStart(to.getTime() - DAY_MS) + WEEK_MS;
  return [new Date(first).toISOString().slice(0, 10), new Date(last).toISOString().slice(0, 10)];
}

/**
 * Recomputes border_daily and zone_daily for the UTC days touching [from, to) from border_hour's
 * stored classification, then border_weekly for the ISO weeks touching them from border_daily, then
 * border_period_count (every border) for the months and years touching those weeks.
 * With `borderIds`, only those borders' rows and the rows of the zones at either end of them (from
 * every border of those zones) are rewritten: what a load that changed those borders' hours alone
 * affects, with the same result as a refresh of everything. Hours without a reported flow
 * (outages) count as 0 MW in the A->B direction. Run it in the same transaction as the
 * reclassification it follows.
 */
export async function refreshFlowRollups(
  db: Executor,
  range: { from: Date; to: Date },
  borderIds?: readonly number[],
): Promise<void> {
  const scope: Scope = borderIds ? [...new Set(borderIds.map(Number))] : null;
  if (scope?.length === 0) return;
  const { from, to } = widenToDays(range);
  const [fromDay, toDay] = [from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)];
  await run(
    db,
    'deleteBorderDaily',
    Prisma.sql`DELETE FROM border_daily WHERE day >= ${fromDay}::date AND day < ${toDay}::date ${inBorders(scope, Prisma.sql`border_id`)}`,
  );
  await run(
    db,
    'deleteZoneDaily',
    Prisma.sql`DELETE FROM zone_daily WHERE day >= ${fromDay}::date AND day < ${toDay}::date ${inZones(scope, Prisma.sql`zone_id`)}`,
  );
  await run(db, 'insertBorderDaily', borderDaily(from, to, scope));
  await run(db, 'insertZoneDaily', zoneDaily(from, to, scope));
  const [fromWeek, toWeek] = weekWindow(from, to);
  await run(
    db,
    'deleteBorderWeekly',
    Prisma.sql`DELETE FROM border_weekly WHERE week >= ${fromWeek}::date AND week < ${toWeek}::date ${inBorders(scope, Prisma.sql`border_id`)}`,
  );
  await run(db, 'insertBorderWeekly', borderWeekly(fromWeek, toWeek, scope));
  await refreshPeriodCounts(db, fromWeek, toWeek);
}
