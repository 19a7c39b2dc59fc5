import type { Database } from '../../db/client.js';
import type { TimeRange } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { read } from '../../db/executor.js';
import { HOUR_MS } from '../../domain/calendar.js';
import { utcBucket } from '../sql/time.js';
import { hourlyPriceRows } from './hourly.js';

/** What price KPIs are statistics of: hourly means, or the published periods weighted by duration. */
export type PriceBasis = 'hourly' | 'native';

/**
 * Price statistics of one zone over a range (EUR/MWh); hour counts are whole hours on the hourly
 * basis, durations in hours (0.25 per quarter-hour) on the native basis.
 */
export interface PriceKpis {
  readonly zone: string;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly std: number;
  readonly p05: number;
  readonly median: number;
  readonly p95: number;
  readonly peakMean: number | null;
  readonly offpeakMean: number | null;
  readonly negativeHours: number;
  readonly hours: number;
  readonly interpolatedHours: number;
}

/** Price KPIs per zone on a basis: {@link findHourlyPriceKpis} or {@link findNativePriceKpis}. */
export function findPriceKpis(
  db: Database,
  range: TimeRange,
  zoneIds: readonly number[],
  basis: PriceBasis = 'hourly',
): Promise<PriceKpis[]> {
  return basis === 'native' ? findNativePriceKpis(db, range, zoneIds) : findHourlyPriceKpis(db, range, zoneIds);
}

/**
 * Price KPIs per zone: statistics of the hourly means of price_point over the range (read from the
 * price_hourly rollup, partial edge hours from price_point); peak = Monday to Friday, hours
 * starting 08:00 to 19:00 in the zone's local time (IANA time zone, DST-aware). Grouped by zone id
 * on rows read in zone order, so no sort of the hours runs before the percentiles' own.
 */
export async function findHourlyPriceKpis(
  db: Database,
  range: TimeRange,
  zoneIds: readonly number[],
): Promise<PriceKpis[]> {
  return read<PriceKpis>(
    db,
    'findPriceKpis',
    Prisma.sql`
    SELECT z.code COLLATE "C" AS zone, k.mean, k.min, k.max, k.std, k.pct[1] AS p05, k.pct[2] AS median, k.pct[3] AS p95,
           k."peakMean", k."offpeakMean", k."negativeHours", k.hours, k."interpolatedHours"
    FROM (
      SELECT t.zone_id, avg(t.price)::float8 AS mean, min(t.price)::float8 AS min, max(t.price)::float8 AS max,
             coalesce(stddev_pop(t.price), 0)::float8 AS std,
             percentile_cont('{0.05,0.5,0.95}'::float8[]) WITHIN GROUP (ORDER BY t.price) AS pct,
             (avg(t.price) FILTER (WHERE t.peak))::float8 AS "peakMean",
             (avg(t.price) FILTER (WHERE NOT t.peak))::float8 AS "offpeakMean",
             count(*) FILTER (WHERE t.price < 0)::int AS "negativeHours", count(*)::int AS hours,
             count(*) FILTER (WHERE t.interpolated)::int AS "interpolatedHours"
      FROM (SELECT * FROM (${hourlyPriceRows(range, zoneIds)}) u ORDER BY u.zone_id) t
      GROUP BY t.zone_id
    ) k JOIN zone z ON z.id = k.zone_id
    ORDER BY 1`,
  );
}

/**
 * Price KPIs per zone over the published periods whose start lies in the range, each weighted by
 * its duration: every period counts once per shortest period of the zone in the range (u minutes,
 * 15 once quarter-hours appear; European periods of 15, 30 and 60 minutes are multiples of it), so
 * a 60-minute price counts as four quarter-hours. On that sample: time-weighted mean, population
 * standard deviation, min and max (the periods' own extremes), `percentile_cont` percentiles
 * (its interpolation between neighbouring samples), peak and off-peak means; hour counts are
 * durations in hours (samples x u / 60). Where every period is an hour this is the hourly basis.
 * A period is peak when the UTC hour holding its start is (`price_hourly.peak`: the local hour of
 * the start, European offsets being whole hours), which spares two time-zone conversions per
 * period, most of the statement's time. One zone at a time (LATERAL): its periods by the primary
 * key, its hours' flags by the covering index, no sort of the whole range.
 */
export async function findNativePriceKpis(
  db: Database,
  range: TimeRange,
  zoneIds: readonly number[],
): Promise<PriceKpis[]> {
  const ids = zoneIds.map(Number);
  const firstHour = new Date(Math.floor(range.from.getTime() / HOUR_MS) * HOUR_MS);
  return read<PriceKpis>(
    db,
    'findNativePriceKpis',
    Prisma.sql`
    SELECT z.code COLLATE "C" AS zone, k.mean, k.min, k.max, k.std, k.pct[1] AS p05, k.pct[2] AS median, k.pct[3] AS p95,
           k."peakMean", k."offpeakMean", k."negativeHours", k.hours, k."interpolatedHours"
    FROM zone z CROSS JOIN LATERAL (
      SELECT avg(s.price)::float8 AS mean, min(s.price)::float8 AS min, max(s.price)::float8 AS max,
             coalesce(stddev_pop(s.price), 0)::float8 AS std,
             percentile_cont('{0.05,0.5,0.95}'::float8[]) WITHIN GROUP (ORDER BY s.price) AS pct,
             (avg(s.price) FILTER (WHERE s.peak))::float8 AS "peakMean",
             (avg(s.price) FILTER (WHERE NOT s.peak))::float8 AS "offpeakMean",
             (count(*) FILTER (WHERE s.price < 0) * max(s.unit) / 60.0)::float8 AS "negativeHours",
             (count(*) * max(s.unit) / 60.0)::float8 AS hours,
             (count(*) FILTER (WHERE s.interpolated) * max(s.unit) / 60.0)::float8 AS "interpolatedHours"
      FROM (
        SELECT p.price_eur_mwh AS price, p.interpolated, h.peak, min(p.period_minutes) OVER () AS unit,
               generate_series(1, p.period_minutes / min(p.period_minutes) OVER ()) AS copy
        FROM price_point p JOIN price_hourly h ON h.zone_id = p.zone_id AND h.hour = ${utcBucket('hour', Prisma.sql`p.ts`)}
        WHERE p.zone_id = z.id AND p.ts >= ${range.from} AND p.ts < ${range.to}
          AND h.zone_id = z.id AND h.hour >= ${firstHour} AND h.hour < ${range.to}
      ) s
      HAVING count(*) > 0
    ) k
    WHERE z.id = ANY(${ids}::smallint[])
    ORDER BY 1`,
  );
}

/** Cross-border exchange of one zone over a range: energy in MWh, peaks in MW, hour counts. */
export interface ZoneExchange {
  readonly zone: string;
  readonly importMwh: number;
  readonly exportMwh: number;
  readonly netExportMwh: number;
  readonly peakImportMw: number;
  readonly peakExportMw: number;
  readonly netImporterHours: number;
  readonly netExporterHours: number;
}

/**
 * Imports and exports per zone from the hourly net flows of its borders (physical, scheduled where
 * physical is missing): each border-hour's net flow counts as import or export of 1 h; peaks and
 * importer/exporter hours use the zone's hourly net position summed over its borders.
 */
export async function findZoneExchange(
  db: Database,
  range: TimeRange,
  zoneIds: readonly number[],
): Promise<ZoneExchange[]> {
  return read<ZoneExchange>(
    db,
    'findZoneExchange',
    Prisma.sql`
    WITH zb AS (
      SELECT z.id AS zone_id, h.ts,
             CASE WHEN (coalesce(h.export_from_a, true)) = (b.zone_a_id = z.id) THEN h.net_flow_mw ELSE -h.net_flow_mw END AS s
      FROM zone z JOIN border b ON z.id IN (b.zone_a_id, b.zone_b_id) JOIN border_hour h ON h.border_id = b.id
      WHERE z.id = ANY(${zoneIds.map(Number)}::smallint[]) AND h.ts >= ${range.from} AND h.ts < ${range.to}
        AND h.net_flow_mw IS NOT NULL
    ), zh AS (
      SELECT zone_id, ts, sum(greatest(s, 0)) AS exp, sum(greatest(-s, 0)) AS imp, sum(s) AS net FROM zb GROUP BY 1, 2
    )
    SELECT z.code COLLATE "C" AS zone, sum(zh.imp)::float8 AS "importMwh", sum(zh.exp)::float8 AS "exportMwh",
           sum(zh.net)::float8 AS "netExportMwh", greatest(max(-zh.net), 0)::float8 AS "peakImportMw",
           greatest(max(zh.net), 0)::float8 AS "peakExportMw",
           count(*) FILTER (WHERE zh.net < 0)::int AS "netImporterHours", count(*) FILTER (WHERE zh.net > 0)::int AS "netExporterHours"
    FROM zh JOIN zone z ON z.id = zh.zone_id
    GROUP BY z.code
    ORDER BY 1`,
  );
}

/** One zone's hours standing for a series over part of a range (price KPIs with lineage). */
export interface SeriesPricePart {
  /** The series' name (the requested zone's code). */
  readonly series: string;
  readonly zoneId: number;
  readonly range: TimeRange;
}

/**
 * Price KPIs per series, each over the hourly prices of its parts taken together (the zones a
 * series chains, each over its own part of the range); `zone` is the series' name. The statistics
 * are those of {@link findPriceKpis}.
 */
export async function findSeriesPriceKpis(db: Database, parts: readonly SeriesPricePart[]): Promise<PriceKpis[]> {
  if (!parts.length) return [];
  const hours = Prisma.join(
    parts.map(
      (p) => Prisma.sql`SELECT ${p.series}::text AS series, u.* FROM (${hourlyPriceRows(p.range, [p.zoneId])}) u`,
    ),
    ' UNION ALL ',
  );
  return read<PriceKpis>(
    db,
    'findSeriesPriceKpis',
    Prisma.sql`
    SELECT t.series COLLATE "C" AS zone, avg(t.price)::float8 AS mean, min(t.price)::float8 AS min, max(t.price)::float8 AS max,
           coalesce(stddev_pop(t.price), 0)::float8 AS std,
           (percentile_cont(0.05) WITHIN GROUP (ORDER BY t.price))::float8 AS p05,
           (percentile_cont(0.5) WITHIN GROUP (ORDER BY t.price))::float8 AS median,
           (percentile_cont(0.95) WITHIN GROUP (ORDER BY t.price))::float8 AS p95,
           (avg(t.price) FILTER (WHERE t.peak))::float8 AS "peakMean",
           (avg(t.price) FILTER (WHERE NOT t.peak))::float8 AS "offpeakMean",
           count(*) FILTER (WHERE t.price < 0)::int AS "negativeHours", count(*)::int AS hours,
           count(*) FILTER (WHERE t.interpolated)::int AS "interpolatedHours"
    FROM (${hours}) t
    GROUP BY t.series
    ORDER BY 1`,
  );
}
