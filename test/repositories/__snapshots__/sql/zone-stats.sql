-- kpis: [["DE_LU",1010],["FR",1010],["NL",1010],["PL",1010]]
-- exchange: [["DE_LU",1010],["FR",1010],["NL",1010],["PL",1010]]

-- statement 1
/* findPriceKpis */ WITH hp AS (
    SELECT p.zone_id, date_bin('1 hour', p.ts, timestamptz '2000-01-03 00:00:00+00') AS hour,
           round((sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes))::numeric, 6)::float8 AS price,
           bool_or(p.interpolated) AS interpolated
    FROM price_point p
    WHERE p.zone_id = ANY($1::smallint[]) AND p.ts >= $2 AND p.ts < $3
    GROUP BY 1, 2
    ), tagged AS (
      SELECT hp.*, extract(isodow FROM hp.hour AT TIME ZONE z.time_zone) BETWEEN 1 AND 5
               AND extract(hour FROM hp.hour AT TIME ZONE z.time_zone) BETWEEN 8 AND 19 AS peak
      FROM hp JOIN zone z ON z.id = hp.zone_id
    )
    SELECT z.code COLLATE "C" AS zone, avg(t.price)::float8 AS mean, min(t.price)::float8 AS min, max(t.price)::float8 AS max,
           coalesce(stddev_pop(t.price), 0)::float8 AS std,
           percentile_cont(0.05) WITHIN GROUP (ORDER BY t.price)::float8 AS p05,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY t.price)::float8 AS median,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY t.price)::float8 AS p95,
           (avg(t.price) FILTER (WHERE t.peak))::float8 AS "peakMean",
           (avg(t.price) FILTER (WHERE NOT t.peak))::float8 AS "offpeakMean",
           count(*) FILTER (WHERE t.price < 0)::int AS "negativeHours", count(*)::int AS hours,
           count(*) FILTER (WHERE t.interpolated)::int AS "interpolatedHours"
    FROM tagged t JOIN zone z ON z.id = t.zone_id
    GROUP BY z.code
    ORDER BY 1;

-- statement 2
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
