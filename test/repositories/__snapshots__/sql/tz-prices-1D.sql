-- rows: 44
-- first: "2025-10-19T21:00:00.000Z"

-- statement 1
/* findPrices */ SELECT round(date_part('epoch', r.datetime) * 1000) AS datetime_ms, r.zone, r.price, r.interpolated FROM (
      SELECT r.datetime, z.code COLLATE "C" AS zone, r.price::float8 AS price, r.interpolated
      FROM (
    SELECT date_trunc('day', p.ts, tz.name) AS datetime, p.zone_id,
           sum(p.price_eur_mwh * p.period_minutes) / sum(p.period_minutes) AS price, bool_or(p.interpolated) AS interpolated
    FROM price_point p JOIN unnest($1::smallint[], $2::text[]) AS tz(zone_id, name) ON tz.zone_id = p.zone_id
    WHERE p.zone_id = ANY($3::smallint[]) AND p.ts >= $4 AND p.ts < $5
    GROUP BY 1, 2) r JOIN zone z ON z.id = r.zone_id) r

    ORDER BY r.datetime, r.zone;
