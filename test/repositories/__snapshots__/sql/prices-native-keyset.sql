-- rows: 10
-- total: 600
-- sources: ["demo"]
-- first: ["2025-10-10T05:15:00.000Z","DE_LU"]

-- statement 1
SELECT round(date_part('epoch', r.datetime) * 1000) AS datetime_ms, r.zone, r.price, r.interpolated FROM (
      SELECT r.datetime, z.code COLLATE "C" AS zone, r.price::float8 AS price, r.interpolated
      FROM (
    SELECT p.ts AS datetime, p.zone_id, p.price_eur_mwh AS price, p.interpolated
    FROM price_point p
    WHERE p.zone_id = ANY($1::smallint[]) AND p.ts >= $2 AND p.ts < $3) r JOIN zone z ON z.id = r.zone_id
    ) r
    WHERE (r.datetime, r.zone) > ($4::timestamptz, $5)
    ORDER BY r.datetime, r.zone
    LIMIT $6;

-- statement 2
SELECT count(*)::int AS n FROM (
    SELECT p.ts AS datetime, p.zone_id, p.price_eur_mwh AS price, p.interpolated
    FROM price_point p
    WHERE p.zone_id = ANY($1::smallint[]) AND p.ts >= $2 AND p.ts < $3) r;

-- statement 3
SELECT DISTINCT unnest(s.sources)::text AS source
    FROM (
      SELECT DISTINCT d.sources FROM price_daily d
      WHERE d.zone_id = ANY($1::smallint[]) AND d.day >= $2::date AND d.day < $3::date
    ) s
    ORDER BY 1;
