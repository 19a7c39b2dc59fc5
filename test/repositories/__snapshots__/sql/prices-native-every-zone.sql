-- rows: 6000
-- total: 6000

-- statement 1
/* findPrices */ SELECT round(date_part('epoch', r.datetime) * 1000) AS datetime_ms, r.zone, r.price, r.interpolated FROM (
      SELECT r.datetime, z.code COLLATE "C" AS zone, r.price::float8 AS price, r.interpolated
      FROM (
    SELECT p.ts AS datetime, p.zone_id, p.price_eur_mwh AS price, p.interpolated
    FROM price_point p
    WHERE p.ts >= $1 AND p.ts < $2) r JOIN zone z ON z.id = r.zone_id AND z.id = ANY($3::smallint[])) r

    ORDER BY r.datetime, r.zone;

-- statement 2
/* countPrices */ SELECT count(*)::int AS n FROM (
    SELECT p.ts AS datetime, p.zone_id, p.price_eur_mwh AS price, p.interpolated
    FROM price_point p
    WHERE p.ts >= $1 AND p.ts < $2) r WHERE r.zone_id = ANY($3::smallint[]);
