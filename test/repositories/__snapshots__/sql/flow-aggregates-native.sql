-- ciRows: 200
-- ciHours: 200
-- typeRows: 0
-- hours: 0

-- statement 1
/* findCiCounts */ SELECT round(date_part('epoch', s.bucket) * 1000) AS day_ms, z.code COLLATE "C" AS zone, s.ci::int AS "ciHours", s.total::int AS "totalHours"
    FROM (SELECT date_bin('1 hour', u.day, timestamptz '2000-01-03 00:00:00+00') AS bucket, u.zone_id, sum(u.ci) AS ci, sum(u.total) AS total
          FROM (
    SELECT zh.ts AS day, zh.zone_id, CASE WHEN zh.ci THEN 1 ELSE 0 END AS ci, 1 AS total
    FROM (
    SELECT z.zone_id, h.ts,
           bool_or(h.flow_type = 'counter_intuitive'
                   AND ((h.export_from_a AND z.zone_id = b.zone_a_id) OR (NOT h.export_from_a AND z.zone_id = b.zone_b_id))) AS ci
    FROM border_hour h
    JOIN border b ON b.id = h.border_id
    CROSS JOIN LATERAL (VALUES (b.zone_a_id), (b.zone_b_id)) AS z(zone_id)
    WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND z.zone_id = ANY($3::smallint[])
    GROUP BY 1, 2) zh) u GROUP BY 1, 2) s
    JOIN zone z ON z.id = s.zone_id
    WHERE s.total > 0
    ORDER BY s.bucket, 2;
