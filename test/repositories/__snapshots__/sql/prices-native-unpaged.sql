-- rows: 600
-- total: 600
-- sources: ["demo"]
-- first: ["2025-10-10T05:00:00.000Z","DE_LU"]

-- statement 1
/* findPrices */ SELECT round(date_part('epoch', r.datetime) * 1000) AS datetime_ms, r.zone, r.price, r.interpolated FROM (
      SELECT r.datetime, z.code COLLATE "C" AS zone, r.price::float8 AS price, r.interpolated
      FROM (
    SELECT p.ts AS datetime, p.zone_id, p.price_eur_mwh AS price, p.interpolated
    FROM price_point p
    WHERE p.zone_id = ANY($1::smallint[]) AND p.ts >= $2 AND p.ts < $3) r JOIN zone z ON z.id = r.zone_id) r

    ORDER BY r.datetime, r.zone;

-- statement 2
/* countPrices */ SELECT count(*)::int AS n FROM (
    SELECT p.ts AS datetime, p.zone_id, p.price_eur_mwh AS price, p.interpolated
    FROM price_point p
    WHERE p.zone_id = ANY($1::smallint[]) AND p.ts >= $2 AND p.ts < $3) r;

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
