-- ciRows: 172
-- ciHours: 4040
-- typeRows: 2537
-- hours: 59590

-- statement 1
/* findCiCounts */ SELECT round(date_part('epoch', (s.bucket AT TIME ZONE 'UTC')) * 1000) AS day_ms, z.code COLLATE "C" AS zone, s.ci::int AS "ciHours", s.total::int AS "totalHours"
    FROM (SELECT date_bin('1 day', u.day::timestamp, timestamp '2000-01-03 00:00:00') AS bucket, u.zone_id, sum(u.ci) AS ci, sum(u.total) AS total
          FROM (
      SELECT (zh.ts AT TIME ZONE 'UTC')::date AS day, zh.zone_id, (count(*) FILTER (WHERE zh.ci))::int AS ci, count(*)::int AS total
      FROM (
    SELECT z.zone_id, h.ts,
           bool_or(h.flow_type = 'counter_intuitive'
                   AND ((h.export_from_a AND z.zone_id = b.zone_a_id) OR (NOT h.export_from_a AND z.zone_id = b.zone_b_id))) AS ci
    FROM border_hour h
    JOIN border b ON b.id = h.border_id
    CROSS JOIN LATERAL (VALUES (b.zone_a_id), (b.zone_b_id)) AS z(zone_id)
    WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND z.zone_id = ANY($3::smallint[])
    GROUP BY 1, 2) zh GROUP BY 1, 2 UNION ALL
      SELECT (zh.ts AT TIME ZONE 'UTC')::date AS day, zh.zone_id, (count(*) FILTER (WHERE zh.ci))::int AS ci, count(*)::int AS total
      FROM (
    SELECT z.zone_id, h.ts,
           bool_or(h.flow_type = 'counter_intuitive'
                   AND ((h.export_from_a AND z.zone_id = b.zone_a_id) OR (NOT h.export_from_a AND z.zone_id = b.zone_b_id))) AS ci
    FROM border_hour h
    JOIN border b ON b.id = h.border_id
    CROSS JOIN LATERAL (VALUES (b.zone_a_id), (b.zone_b_id)) AS z(zone_id)
    WHERE h.ts >= $4 AND h.ts < $5 AND h.flow_type IS NOT NULL AND z.zone_id = ANY($6::smallint[])
    GROUP BY 1, 2) zh GROUP BY 1, 2 UNION ALL
      SELECT d.day, d.zone_id, d.ci_hours AS ci, d.assessed_hours AS total
      FROM zone_daily d WHERE d.day >= $7::date AND d.day < $8::date AND d.zone_id = ANY($9::smallint[])) u GROUP BY 1, 2) s
    JOIN zone z ON z.id = s.zone_id
    WHERE s.total > 0
    ORDER BY s.bucket, 2;

-- statement 2
/* findFlowTypeCounts */ SELECT round(date_part('epoch', (s.bucket::timestamp AT TIME ZONE 'UTC')) * 1000) AS day_ms, za.code COLLATE "C" AS "zoneA", zb.code COLLATE "C" AS "zoneB",
           s.convergence, s.congestion, s.counter_intuitive AS "counterIntuitive", s.outage, s.hours
    FROM (
      SELECT date_bin('1 day', d.day::timestamp, timestamp '2000-01-03 00:00:00')::date AS bucket, d.border_id,
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'convergence'), 0)::int AS convergence,
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'congestion'), 0)::int AS congestion,
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'counter_intuitive'), 0)::int AS counter_intuitive,
             coalesce(sum(d.hours) FILTER (WHERE d.flow_type = 'outage'), 0)::int AS outage,
             sum(d.hours)::int AS hours
      FROM (
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, count(*)::int AS hours
      FROM border_hour h WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, count(*)::int AS hours
      FROM border_hour h WHERE h.ts >= $3 AND h.ts < $4 AND h.flow_type IS NOT NULL
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, hours
      FROM border_daily d
      WHERE d.day >= $5::date AND d.day < $6::date  ) d
      GROUP BY 1, 2) s
    JOIN border b ON b.id = s.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    ORDER BY s.bucket, 2, 3;
