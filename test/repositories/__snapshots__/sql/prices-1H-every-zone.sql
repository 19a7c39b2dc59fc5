-- rows: 1500
-- total: 1500

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
    WHERE p.ts >= $1 AND p.ts < $2
    GROUP BY 1, 2) h) r JOIN zone z ON z.id = r.zone_id AND z.id = ANY($3::smallint[])) r

    ORDER BY r.datetime, r.zone;

-- statement 2
/* countPrices */ SELECT count(*)::int AS n FROM (
    SELECT h.hour AS datetime, h.zone_id, h.price, h.interpolated
    FROM (
    SELECT p.zone_id, date_bin('1 hour', p.ts, timestamptz '2000-01-03 00:00:00+00') AS hour,
           round((sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes))::numeric, 6)::float8 AS price,
           bool_or(p.interpolated) AS interpolated
    FROM price_point p
    WHERE p.ts >= $1 AND p.ts < $2
    GROUP BY 1, 2) h) r WHERE r.zone_id = ANY($3::smallint[]);
