-- kpis: [["DE_LU",1010],["FR",1010],["NL",1010],["PL",1010]]
-- native: [["DE_LU",1010],["FR",1010],["NL",1010],["PL",1010]]
-- exchange: [["DE_LU",1010],["FR",1010],["NL",1010],["PL",1010]]

-- statement 1
/* findPriceKpis */ SELECT z.code COLLATE "C" AS zone, k.mean, k.min, k.max, k.std, k.pct[1] AS p05, k.pct[2] AS median, k.pct[3] AS p95,
           k."peakMean", k."offpeakMean", k."negativeHours", k.hours, k."interpolatedHours"
    FROM (
      SELECT t.zone_id, avg(t.price)::float8 AS mean, min(t.price)::float8 AS min, max(t.price)::float8 AS max,
             coalesce(stddev_pop(t.price), 0)::float8 AS std,
             percentile_cont('{0.05,0.5,0.95}'::float8[]) WITHIN GROUP (ORDER BY t.price) AS pct,
             (avg(t.price) FILTER (WHERE t.peak))::float8 AS "peakMean",
             (avg(t.price) FILTER (WHERE NOT t.peak))::float8 AS "offpeakMean",
             count(*) FILTER (WHERE t.price < 0)::int AS "negativeHours", count(*)::int AS hours,
             count(*) FILTER (WHERE t.interpolated)::int AS "interpolatedHours"
      FROM (SELECT * FROM (
      SELECT h.zone_id, h.hour, h.price_eur_mwh AS price, h.interpolated, h.peak
      FROM price_hourly h WHERE h.zone_id = ANY($1::smallint[]) AND h.hour >= $2 AND h.hour < $3) u ORDER BY u.zone_id) t
      GROUP BY t.zone_id
    ) k JOIN zone z ON z.id = k.zone_id
    ORDER BY 1;

-- statement 2
/* findNativePriceKpis */ SELECT z.code COLLATE "C" AS zone, k.mean, k.min, k.max, k.std, k.pct[1] AS p05, k.pct[2] AS median, k.pct[3] AS p95,
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
        FROM price_point p JOIN price_hourly h ON h.zone_id = p.zone_id AND h.hour = date_bin('1 hour', p.ts, timestamptz '2000-01-03 00:00:00+00')
        WHERE p.zone_id = z.id AND p.ts >= $1 AND p.ts < $2
          AND h.zone_id = z.id AND h.hour >= $3 AND h.hour < $4
      ) s
      HAVING count(*) > 0
    ) k
    WHERE z.id = ANY($5::smallint[])
    ORDER BY 1;

-- statement 3
/* findZoneExchange */ WITH zb AS (
      SELECT z.id AS zone_id, h.ts,
             CASE WHEN (coalesce(h.export_from_a, true)) = (b.zone_a_id = z.id) THEN h.net_flow_mw ELSE -h.net_flow_mw END AS s
      FROM zone z JOIN border b ON z.id IN (b.zone_a_id, b.zone_b_id) JOIN border_hour h ON h.border_id = b.id
      WHERE z.id = ANY($1::smallint[]) AND h.ts >= $2 AND h.ts < $3
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
    ORDER BY 1;
