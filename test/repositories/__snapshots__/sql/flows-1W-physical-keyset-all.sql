-- rows: 20
-- total: 1797
-- sources: ["demo"]
-- first: ["2025-09-22T00:00:00.000Z","AT","IT_NORD","congestion"]

-- statement 1
/* findFlowRows */ SELECT round(date_part('epoch', f.datetime) * 1000) AS datetime_ms, f.zone_from, f.zone_to, f.flow_type,
           f.flow_interpolated, f.net_flow_mw, f.price_from, f.price_to, f.capacity_mw, f.hours, f.derived
    FROM (
    SELECT r.datetime, r.sort_key, p.zone_from, p.zone_to,
           r.flow_type COLLATE "C" AS flow_type, r.flow_interpolated, r.net_flow_mw::float8, r.price_from::float8, r.price_to::float8,
           r.capacity_mw::float8, r.hours, r.derived
    FROM (
    SELECT (date_bin('7 days', s.day::timestamp, timestamp '2000-01-03 00:00:00') AT TIME ZONE 'UTC') AS datetime, date_bin('7 days', s.day::timestamp, timestamp '2000-01-03 00:00:00') AS sort_key, s.border_id, s.export_from_a,
           s.flow_type::text AS flow_type, sum(s.interpolated_hours) > 0 AS flow_interpolated,
           sum(s.net_flow_sum) / sum(s.hours) AS net_flow_mw,
           sum(s.price_from_sum) / nullif(sum(s.price_hours), 0) AS price_from,
           sum(s.price_to_sum) / nullif(sum(s.price_hours), 0) AS price_to,
           sum(s.capacity_sum) / nullif(sum(s.capacity_hours), 0) AS capacity_mw,
           sum(s.hours)::int AS hours, sum(s.derived_hours) > 0 AS derived
    FROM (
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, count(*)::int AS hours,
  count(*) FILTER (WHERE (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END))::int AS interpolated_hours,
  count(*) FILTER (WHERE h.flow_derived)::int AS derived_hours,
  coalesce(sum(h.net_flow_mw), 0) AS net_flow_sum,
  count(*) FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL)::int AS price_hours,
  coalesce(sum(CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_from_sum,
  coalesce(sum(CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_to_sum,
  coalesce(sum(CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END), 0) AS capacity_sum,
  count(CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END)::int AS capacity_hours,
  array_remove(array_agg(DISTINCT coalesce(h.physical_source, h.scheduled_source, h.ntc_source)), NULL) AS sources
      FROM border_hour h WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, count(*)::int AS hours,
  count(*) FILTER (WHERE (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END))::int AS interpolated_hours,
  count(*) FILTER (WHERE h.flow_derived)::int AS derived_hours,
  coalesce(sum(h.net_flow_mw), 0) AS net_flow_sum,
  count(*) FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL)::int AS price_hours,
  coalesce(sum(CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_from_sum,
  coalesce(sum(CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END)
           FILTER (WHERE h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL), 0) AS price_to_sum,
  coalesce(sum(CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END), 0) AS capacity_sum,
  count(CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END)::int AS capacity_hours,
  array_remove(array_agg(DISTINCT coalesce(h.physical_source, h.scheduled_source, h.ntc_source)), NULL) AS sources
      FROM border_hour h WHERE h.ts >= $3 AND h.ts < $4 AND h.flow_type IS NOT NULL
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, hours, interpolated_hours, derived_hours, net_flow_sum, price_hours, price_from_sum,
  price_to_sum, capacity_sum, capacity_hours, sources
      FROM border_daily d
      WHERE d.day >= $5::date AND d.day < $6::date   UNION ALL
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, hours, interpolated_hours, derived_hours, net_flow_sum, price_hours, price_from_sum,
  price_to_sum, capacity_sum, capacity_hours, sources
      FROM border_daily d
      WHERE d.day >= $7::date AND d.day < $8::date   UNION ALL
      SELECT d.week AS day, d.border_id, d.flow_type, d.export_from_a, hours, interpolated_hours, derived_hours, net_flow_sum, price_hours, price_from_sum,
  price_to_sum, capacity_sum, capacity_hours, sources
      FROM border_weekly d
      WHERE d.week >= $9::date AND d.week < $10::date  ) s
    GROUP BY date_bin('7 days', s.day::timestamp, timestamp '2000-01-03 00:00:00'), s.border_id, s.export_from_a, s.flow_type) r
    JOIN border b ON b.id = r.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to) p
    WHERE (r.datetime > $11::timestamptz
    OR (r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        > ($12, $13))
    OR ((r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        = ($14, $15)) AND r.flow_type COLLATE "C" > $16))) f
    ORDER BY f.sort_key, f.zone_from, f.zone_to, f.flow_type
    LIMIT $17;

-- statement 2
/* findFlowPositionIndex */ SELECT x.part, x.ms, x.rows, x.derived
    FROM (SELECT 0 AS part, p.ms, p.rows, p.derived FROM (
    SELECT round(date_part('epoch', (r.bucket AT TIME ZONE 'UTC')) * 1000) AS ms, count(*)::int AS rows, bool_or(r.derived) AS derived
    FROM (
      SELECT date_bin('7 days', k.day::timestamp, timestamp '2000-01-03 00:00:00') AS bucket, bool_or(k.derived) AS derived
      FROM (
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, bool_or(h.flow_derived) AS derived
      FROM border_hour h WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, derived_hours > 0 AS derived
      FROM border_daily d
      WHERE d.day >= $3::date AND d.day < $4::date  ) k GROUP BY 1, k.border_id, k.export_from_a, k.flow_type UNION ALL SELECT k.day::timestamp AS bucket, k.derived FROM (
      SELECT d.week AS day, d.border_id, d.flow_type, d.export_from_a, derived_hours > 0 AS derived
      FROM border_weekly d
      WHERE d.week >= $5::date AND d.week < $6::date  ) k) r GROUP BY r.bucket ORDER BY r.bucket) p UNION ALL
    SELECT 1 AS part, round(date_part('epoch', (c.start::timestamp AT TIME ZONE 'UTC')) * 1000) AS ms, sum(c.weeks)::int AS rows,
           sum(c.week_derived_hours) > 0 AS derived
    FROM border_period_count c
    WHERE c.span_months = 1 AND c.start >= $7::date
          AND c.start < $8::date
    GROUP BY c.start HAVING sum(c.weeks) > 0 UNION ALL SELECT 2 AS part, p.ms, p.rows, p.derived FROM (
    SELECT round(date_part('epoch', (r.bucket AT TIME ZONE 'UTC')) * 1000) AS ms, count(*)::int AS rows, bool_or(r.derived) AS derived
    FROM (
      SELECT date_bin('7 days', k.day::timestamp, timestamp '2000-01-03 00:00:00') AS bucket, bool_or(k.derived) AS derived
      FROM (
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, bool_or(h.flow_derived) AS derived
      FROM border_hour h WHERE h.ts >= $9 AND h.ts < $10 AND h.flow_type IS NOT NULL
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, derived_hours > 0 AS derived
      FROM border_daily d
      WHERE d.day >= $11::date AND d.day < $12::date  ) k GROUP BY 1, k.border_id, k.export_from_a, k.flow_type) r GROUP BY r.bucket ORDER BY r.bucket) p) x
    ORDER BY x.part, x.ms;

-- statement 3
/* findFlowSources */ WITH RECURSIVE arrays(sources) AS (
      (SELECT d.sources FROM border_daily d ORDER BY d.sources LIMIT 1)
      UNION ALL
      SELECT (SELECT d.sources FROM border_daily d WHERE d.sources > a.sources ORDER BY d.sources LIMIT 1)
      FROM arrays a WHERE a.sources IS NOT NULL
    )
    SELECT DISTINCT unnest(a.sources)::text AS source FROM arrays a
    WHERE a.sources IS NOT NULL AND EXISTS (
      SELECT 1 FROM border_daily d
      WHERE d.sources = a.sources AND d.day >= $1::date AND d.day < $2::date )
    ORDER BY 1;
