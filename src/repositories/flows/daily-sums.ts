import { DAY_MS, WEEK_MS, isoWeekStart } from '../../domain/calendar.js';
import type { Resolution } from '../../domain/resolution.js';
import { isoDay, splitDays, type TimeRange } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { utcDay } from '../sql/time.js';
import { DIR, type FlowFilter, FLOW_INTERPOLATED, hourConditions, rollupKeyConditions } from './filter.js';

/**
 * Aggregates of border-hours (alias `h`) grouped by day, border, flow type and direction, in the
 * column order of border_daily after those four keys.
 */
export const HOUR_AGGREGATES = Prisma.sql`count(*)::int AS hours,
  count(*) FILTER (WHERE ${FLOW_INTERPOLATED})::int AS interpolated_hours,
  count(*) FILTER (WHERE h.flow_derived)::int AS derived_hours,
  coalesce(sum(h.net_flow_mw), 0) AS net_flow_sum,
  count(*) FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL)::int AS price_hours,
  coalesce(sum(CASE WHEN ${DIR} THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_from_sum,
  coalesce(sum(CASE WHEN ${DIR} THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_to_sum,
  coalesce(sum(CASE WHEN ${DIR} THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END), 0) AS capacity_sum,
  count(CASE WHEN ${DIR} THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END)::int AS capacity_hours,
  array_remove(array_agg(DISTINCT coalesce(h.physical_source, h.scheduled_source, h.ntc_source)), NULL) AS sources`;

/**
 * Splits a range of whole UTC days into the whole ISO weeks inside it (Monday to Monday) and the
 * runs of days before and after them (the whole range when it holds no whole week).
 */
export function splitWeeks(days: TimeRange): { weeks: TimeRange | null; days: TimeRange[] } {
  const from = days.from.getTime();
  const to = days.to.getTime();
  const first = from === isoWeekStart(from) ? from : isoWeekStart(from) + WEEK_MS;
  const last = isoWeekStart(to);
  if (first >= last) return { weeks: null, days: [days] };
  const around: TimeRange[] = [];
  if (from < first) around.push({ from: days.from, to: new Date(first) });
  if (last < to) around.push({ from: new Date(last), to: days.to });
  return { weeks: { from: new Date(first), to: new Date(last) }, days: around };
}

/** Columns of border_daily and border_weekly after their key, in the order of the sums. */
const ROLLUP_SUMS = Prisma.sql`hours, interpolated_hours, derived_hours, net_flow_sum, price_hours, price_from_sum,
  price_to_sum, capacity_sum, capacity_hours, sources`;

/**
 * Sums per border, direction and flow type over [from, to), as rows of a `date` column `day`:
 * partial first and last days aggregated from border_hour (index ranges, never a scan of the whole
 * range), whole days from the border_daily rollup, and with `weeks`, the whole ISO weeks inside
 * the range from border_weekly (one row per week, `day` = its Monday). The union equals
 * aggregating border_hour over the range for every 1D (without weeks) or 1W bucket. Columns: day,
 * border_id, flow_type, export_from_a, hours, interpolated_hours, derived_hours, net_flow_sum,
 * price_hours, price_from_sum, price_to_sum, capacity_sum, capacity_hours, sources. Bucket `day`
 * with `dayBucket` and turn buckets into instants with `utcInstant` (sql-time.ts) after grouping, so
 * no time zone work runs per rollup row (5 years of 59 borders are 320,000 daily rows).
 */
export function dailySums(f: FlowFilter, weeks = false): Prisma.Sql {
  const { days, weekly } = dailyParts(f, weeks, { hours: HOUR_AGGREGATES, rollup: ROLLUP_SUMS });
  return Prisma.join(weekly ? [...days, weekly] : days, ' UNION ALL ');
}

/**
 * The keys of {@link dailySums} alone, without its sums: rows of (day, border_id, flow_type,
 * export_from_a, derived), `derived` true when any hour of the row's flow is derived. Counting rows
 * per bucket from these costs a fraction of regrouping the sums (no array_agg, no spill). With
 * `weeks`, the rows of whole ISO weeks (`weekly`, from border_weekly: already one row per week and
 * key) apart from the rows of the days around them (`days`, to be grouped into their weeks); either
 * is null when the range has none.
 */
export function dailyKeys(f: FlowFilter, weeks = false): { days: Prisma.Sql | null; weekly: Prisma.Sql | null } {
  const parts = dailyParts(f, weeks, {
    hours: Prisma.sql`bool_or(h.flow_derived) AS derived`,
    rollup: Prisma.sql`derived_hours > 0 AS derived`,
  });
  return { days: parts.days.length ? Prisma.join(parts.days, ' UNION ALL ') : null, weekly: parts.weekly };
}

/**
 * The hours of {@link dailySums} alone: rows of (day, border_id, flow_type, export_from_a, hours),
 * with `weeks` the whole ISO weeks from border_weekly (`weekly`, `day` = the week's Monday, one row
 * per week and key, read in week order by its (week, border_id, flow_type, hours) index) apart from
 * the rows of the days and hours around them (`days`); either is null when the range has none.
 */
export function dailyHours(f: FlowFilter, weeks = false): { days: Prisma.Sql | null; weekly: Prisma.Sql | null } {
  const parts = dailyParts(f, weeks, { hours: Prisma.sql`count(*)::int AS hours`, rollup: Prisma.sql`hours` });
  return { days: parts.days.length ? Prisma.join(parts.days, ' UNION ALL ') : null, weekly: parts.weekly };
}

/**
 * The parts of {@link dailySums}: `hours` aggregates border-hours `h`, `rollup` lists rollup
 * columns; the daily parts and the weekly rollup's part (null without whole weeks).
 */
function dailyParts(
  f: FlowFilter,
  weeks: boolean,
  columns: { hours: Prisma.Sql; rollup: Prisma.Sql },
): { days: Prisma.Sql[]; weekly: Prisma.Sql | null } {
  const split = splitDays(f);
  const keys = rollupKeyConditions(f);
  const parts: Prisma.Sql[] = split.edges.map(
    (e) => Prisma.sql`
      SELECT ${utcDay(Prisma.sql`h.ts`)} AS day, h.border_id, h.flow_type, ${DIR} AS export_from_a, ${columns.hours}
      FROM border_hour h WHERE ${hourConditions({ ...f, ...e })}
      GROUP BY 1, 2, 3, 4`,
  );
  const byWeek = split.days && weeks ? splitWeeks(split.days) : { weeks: null, days: split.days ? [split.days] : [] };
  for (const days of byWeek.days) {
    parts.push(Prisma.sql`
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, ${columns.rollup}
      FROM border_daily d
      WHERE d.day >= ${isoDay(days.from)}::date AND d.day < ${isoDay(days.to)}::date ${keys}`);
  }
  const weekly =
    byWeek.weeks &&
    Prisma.sql`
      SELECT d.week AS day, d.border_id, d.flow_type, d.export_from_a, ${columns.rollup}
      FROM border_weekly d
      WHERE d.week >= ${isoDay(byWeek.weeks.from)}::date AND d.week < ${isoDay(byWeek.weeks.to)}::date ${keys}`;
  return { days: parts, weekly };
}

/** The sums a 1D or 1W bucketing reads: whole weeks from border_weekly at 1W. */
export function bucketSums(f: FlowFilter, resolution: Resolution): Prisma.Sql {
  return dailySums(f, resolution === '1W');
}

/**
 * The first UTC day (`YYYY-MM-DD`) starting at or after an instant: `day < firstDayFrom(to)` keeps
 * exactly the days that start before `to`, as an index range on a `date` column.
 */
export function firstDayFrom(instant: Date): string {
  return isoDay(new Date(Math.ceil(instant.getTime() / DAY_MS) * DAY_MS));
}
