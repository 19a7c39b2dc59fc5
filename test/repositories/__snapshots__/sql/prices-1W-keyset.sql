-- rows: 10
-- total: 21
-- sources: ["demo"]
-- first: ["2025-09-29T00:00:00.000Z","DE_LU"]

-- statement 1
/* findPrices */ SELECT round(date_part('epoch', r.datetime) * 1000) AS datetime_ms, r.zone, r.price, r.interpolated FROM (
      SELECT r.datetime, z.code COLLATE "C" AS zone, r.price::float8 AS price, r.interpolated
      FROM (
    SELECT date_bin('7 days', s.day, timestamptz '2000-01-03 00:00:00+00') AS datetime, s.zone_id,
           sum(s.weighted_sum) / sum(s.minutes) AS price, bool_or(s.interpolated) AS interpolated
    FROM (
      SELECT date_bin('1 day', p.ts, timestamptz '2000-01-03 00:00:00+00') AS day, p.zone_id, sum(p.price_eur_mwh * p.period_minutes) AS weighted_sum,
             sum(p.period_minutes) AS minutes, bool_or(p.interpolated) AS interpolated
      FROM price_point p
      WHERE p.zone_id = ANY($1::smallint[]) AND ((p.ts >= $2 AND p.ts < $3) OR (p.ts >= $4 AND p.ts < $5))
      GROUP BY 1, 2 UNION ALL
      SELECT (d.day::timestamp AT TIME ZONE 'UTC') AS day, d.zone_id, d.weighted_sum, d.minutes, d.interpolated
      FROM price_daily d
      WHERE d.zone_id = ANY($6::smallint[]) AND d.day >= $7::date AND d.day < $8::date) s
    GROUP BY 1, 2) r JOIN zone z ON z.id = r.zone_id) r
    WHERE (r.datetime, r.zone) > ($9::timestamptz, $10)
    ORDER BY r.datetime, r.zone
    LIMIT $11;

-- statement 2
/* countPrices */ SELECT count(*)::int AS n FROM (
    SELECT date_bin('7 days', s.day, timestamptz '2000-01-03 00:00:00+00') AS datetime, s.zone_id,
           sum(s.weighted_sum) / sum(s.minutes) AS price, bool_or(s.interpolated) AS interpolated
    FROM (
      SELECT date_bin('1 day', p.ts, timestamptz '2000-01-03 00:00:00+00') AS day, p.zone_id, sum(p.price_eur_mwh * p.period_minutes) AS weighted_sum,
             sum(p.period_minutes) AS minutes, bool_or(p.interpolated) AS interpolated
      FROM price_point p
      WHERE p.zone_id = ANY($1::smallint[]) AND ((p.ts >= $2 AND p.ts < $3) OR (p.ts >= $4 AND p.ts < $5))
      GROUP BY 1, 2 UNION ALL
      SELECT (d.day::timestamp AT TIME ZONE 'UTC') AS day, d.zone_id, d.weighted_sum, d.minutes, d.interpolated
      FROM price_daily d
      WHERE d.zone_id = ANY($6::smallint[]) AND d.day >= $7::date AND d.day < $8::date) s
    GROUP BY 1, 2) r;

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
