-- rows: 10
-- total: 150
-- sources: ["demo"]
-- first: ["2025-10-10T06:00:00.000Z","DE_LU"]

-- statement 1
/* findPrices */ SELECT round(date_part('epoch', r.datetime) * 1000) AS datetime_ms, r.zone, r.price, r.interpolated FROM (
      SELECT r.datetime, z.code COLLATE "C" AS zone, r.price::float8 AS price, r.interpolated
      FROM (
    SELECT h.hour AS datetime, h.zone_id, h.price, h.interpolated
    FROM (
    SELECT p.zone_id, date_bin('1 hour', p.ts, timestamptz '2000-01-03 00:00:00+00') AS hour,
           round((sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes))::numeric, 6)::float8 AS price,
           bool_or(p.interpolated) AS interpolated
    FROM price_point p
    WHERE p.zone_id = ANY($1::smallint[]) AND p.ts >= $2 AND p.ts < $3
    GROUP BY 1, 2) h) r JOIN zone z ON z.id = r.zone_id) r
    WHERE (r.datetime, r.zone) > ($4::timestamptz, $5)
    ORDER BY r.datetime, r.zone
    LIMIT $6;

-- statement 2
/* countPrices */ SELECT count(*)::int AS n FROM (
    SELECT h.hour AS datetime, h.zone_id, h.price, h.interpolated
    FROM (
    SELECT p.zone_id, date_bin('1 hour', p.ts, timestamptz '2000-01-03 00:00:00+00') AS hour,
           round((sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes))::numeric, 6)::float8 AS price,
           bool_or(p.interpolated) AS interpolated
    FROM price_point p
    WHERE p.zone_id = ANY($1::smallint[]) AND p.ts >= $2 AND p.ts < $3
    GROUP BY 1, 2) h) r;

-- statement 3
/* findPriceSources */ WITH RECURSIVE arrays(sources) AS (
      (SELECT d.sources FROM price_daily d ORDER BY d.sources LIMIT 1)
      UNION ALL
      SELECT (SELECT d.sources FROM price_daily d WHERE d.sources > a.sources ORDER BY d.sources LIMIT 1)
      FROM arrays a WHERE a.sources IS NOT NULL
    )
    SELECT DISTINCT unnest(a.sources)::text AS source FROM arrays a
    WHERE a.sources IS NOT NULL AND EXISTS (
      SELECT 1 FROM price_daily d
      WHERE d.sources = a.sources AND d.day >= $1::date AND d.day < $2::date AND d.zone_id = ANY($3::smallint[]))
    ORDER BY 1;
