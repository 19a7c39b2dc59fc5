-- ciRows: 8
-- ciHours: 1008
-- typeRows: 30
-- hours: 3360

-- statement 1
/* findCiCounts */ SELECT round(date_part('epoch', s.bucket) * 1000) AS day_ms, z.code COLLATE "C" AS zone, s.ci::int AS "ciHours", s.total::int AS "totalHours"
    FROM (SELECT date_trunc('week', u.day, tz.name) AS bucket, u.zone_id, sum(u.ci) AS ci, sum(u.total) AS total
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
    GROUP BY 1, 2) zh) u JOIN unnest($4::smallint[], $5::text[]) AS tz(zone_id, name) ON tz.zone_id = u.zone_id GROUP BY 1, 2) s
    JOIN zone z ON z.id = s.zone_id
    WHERE s.total > 0
    ORDER BY s.bucket, 2;

-- statement 2
/* findFlowTypeCounts */ SELECT round(date_part('epoch', s.bucket) * 1000) AS day_ms, za.code COLLATE "C" AS "zoneA", zb.code COLLATE "C" AS "zoneB",
           s.convergence, s.congestion, s.counter_intuitive AS "counterIntuitive", s.outage, s.hours
    FROM (
      SELECT date_trunc('week', h.ts, tz.name) AS bucket, h.border_id,
             (count(*) FILTER (WHERE h.flow_type = 'convergence'))::int AS convergence,
             (count(*) FILTER (WHERE h.flow_type = 'congestion'))::int AS congestion,
             (count(*) FILTER (WHERE h.flow_type = 'counter_intuitive'))::int AS counter_intuitive,
             (count(*) FILTER (WHERE h.flow_type = 'outage'))::int AS outage,
             count(*)::int AS hours
      FROM border_hour h JOIN unnest($1::smallint[], $2::text[]) AS tz(border_id, name) ON tz.border_id = h.border_id
      WHERE h.ts >= $3 AND h.ts < $4 AND h.flow_type IS NOT NULL AND h.border_id = ANY($5::smallint[])
      GROUP BY 1, 2
    ) s
    JOIN border b ON b.id = s.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    ORDER BY s.bucket, 2, 3;
