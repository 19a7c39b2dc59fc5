-- rows: 210
-- total: 210

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
      WHERE ((p.ts >= $1 AND p.ts < $2) OR (p.ts >= $3 AND p.ts < $4))
      GROUP BY 1, 2 UNION ALL
      SELECT (d.day::timestamp AT TIME ZONE 'UTC') AS day, d.zone_id, d.weighted_sum, d.minutes, d.interpolated
      FROM price_daily d
      WHERE d.day >= $5::date AND d.day < $6::date) s
    GROUP BY 1, 2) r JOIN zone z ON z.id = r.zone_id AND z.id = ANY($7::smallint[])) r

    ORDER BY r.datetime, r.zone;

-- statement 2
/* countPrices */ SELECT count(*)::int AS n FROM (
    SELECT date_bin('7 days', s.day, timestamptz '2000-01-03 00:00:00+00') AS datetime, s.zone_id,
           sum(s.weighted_sum) / sum(s.minutes) AS price, bool_or(s.interpolated) AS interpolated
    FROM (
      SELECT date_bin('1 day', p.ts, timestamptz '2000-01-03 00:00:00+00') AS day, p.zone_id, sum(p.price_eur_mwh * p.period_minutes) AS weighted_sum,
             sum(p.period_minutes) AS minutes, bool_or(p.interpolated) AS interpolated
      FROM price_point p
      WHERE ((p.ts >= $1 AND p.ts < $2) OR (p.ts >= $3 AND p.ts < $4))
      GROUP BY 1, 2 UNION ALL
      SELECT (d.day::timestamp AT TIME ZONE 'UTC') AS day, d.zone_id, d.weighted_sum, d.minutes, d.interpolated
      FROM price_daily d
      WHERE d.day >= $5::date AND d.day < $6::date) s
    GROUP BY 1, 2) r WHERE r.zone_id = ANY($7::smallint[]);
