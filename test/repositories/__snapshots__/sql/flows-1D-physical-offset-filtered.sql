-- rows: 20
-- total: 221
-- sources: ["demo"]
-- first: ["2025-09-25T00:00:00.000Z","CZ","DE_LU","counter_intuitive"]

-- statement 1
/* findFlowPositionIndex */ SELECT x.part, x.ms, x.rows, x.derived
    FROM (SELECT 0 AS part, p.ms, p.rows, p.derived FROM (
    SELECT round(date_part('epoch', (r.bucket::timestamp AT TIME ZONE 'UTC')) * 1000) AS ms, count(*)::int AS rows, bool_or(r.derived) AS derived
    FROM (SELECT k.day AS bucket, k.derived FROM (
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, bool_or(h.flow_derived) AS derived
      FROM border_hour h WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND h.border_id = ANY($3::smallint[]) AND h.flow_type::text = ANY($4::text[])
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, derived_hours > 0 AS derived
      FROM border_daily d
      WHERE d.day >= $5::date AND d.day < $6::date AND d.border_id = ANY($7::smallint[]) AND d.flow_type::text = ANY($8::text[])) k) r GROUP BY r.bucket ORDER BY r.bucket) p UNION ALL
    SELECT 1 AS part, round(date_part('epoch', (c.start::timestamp AT TIME ZONE 'UTC')) * 1000) AS ms, sum(c.days)::int AS rows,
           sum(c.derived_hours) > 0 AS derived
    FROM border_period_count c
    WHERE c.span_months = 1 AND c.start >= $9::date
          AND c.start < $10::date AND c.border_id = ANY($11::smallint[]) AND c.flow_type::text = ANY($12::text[])
    GROUP BY c.start HAVING sum(c.days) > 0 UNION ALL SELECT 2 AS part, p.ms, p.rows, p.derived FROM (
    SELECT round(date_part('epoch', (r.bucket::timestamp AT TIME ZONE 'UTC')) * 1000) AS ms, count(*)::int AS rows, bool_or(r.derived) AS derived
    FROM (SELECT k.day AS bucket, k.derived FROM (
      SELECT (h.ts AT TIME ZONE 'UTC')::date AS day, h.border_id, h.flow_type, coalesce(h.export_from_a, true) AS export_from_a, bool_or(h.flow_derived) AS derived
      FROM border_hour h WHERE h.ts >= $13 AND h.ts < $14 AND h.flow_type IS NOT NULL AND h.border_id = ANY($15::smallint[]) AND h.flow_type::text = ANY($16::text[])
      GROUP BY 1, 2, 3, 4 UNION ALL
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, derived_hours > 0 AS derived
      FROM border_daily d
      WHERE d.day >= $17::date AND d.day < $18::date AND d.border_id = ANY($19::smallint[]) AND d.flow_type::text = ANY($20::text[])) k) r GROUP BY r.bucket ORDER BY r.bucket) p) x
    ORDER BY x.part, x.ms;

-- statement 2
/* findFlowRows */ SELECT round(date_part('epoch', f.datetime) * 1000) AS datetime_ms, f.zone_from, f.zone_to, f.flow_type,
           f.flow_interpolated, f.net_flow_mw, f.price_from, f.price_to, f.capacity_mw, f.hours, f.derived
    FROM (
    SELECT r.datetime, r.sort_key, p.zone_from, p.zone_to,
           r.flow_type COLLATE "C" AS flow_type, r.flow_interpolated, r.net_flow_mw::float8, r.price_from::float8, r.price_to::float8,
           r.capacity_mw::float8, r.hours, r.derived
    FROM (
      SELECT (s.day::timestamp AT TIME ZONE 'UTC') AS datetime, s.day AS sort_key, s.border_id, s.export_from_a,
             s.flow_type::text AS flow_type, s.interpolated_hours > 0 AS flow_interpolated,
             s.net_flow_sum / s.hours AS net_flow_mw,
             s.price_from_sum / nullif(s.price_hours, 0) AS price_from,
             s.price_to_sum / nullif(s.price_hours, 0) AS price_to,
             s.capacity_sum / nullif(s.capacity_hours, 0) AS capacity_mw,
             s.hours, s.derived_hours > 0 AS derived
      FROM (
      SELECT d.day, d.border_id, d.flow_type, d.export_from_a, hours, interpolated_hours, derived_hours, net_flow_sum, price_hours, price_from_sum,
  price_to_sum, capacity_sum, capacity_hours, sources
      FROM border_daily d
      WHERE d.day >= $1::date AND d.day < $2::date AND d.border_id = ANY($3::smallint[]) AND d.flow_type::text = ANY($4::text[])) s) r
    JOIN border b ON b.id = r.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to) p
    ) f
    ORDER BY f.sort_key, f.zone_from, f.zone_to, f.flow_type
    LIMIT $5 OFFSET $6;

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
      WHERE d.sources = a.sources AND d.day >= $1::date AND d.day < $2::date AND d.border_id = ANY($3::smallint[]))
    ORDER BY 1;
