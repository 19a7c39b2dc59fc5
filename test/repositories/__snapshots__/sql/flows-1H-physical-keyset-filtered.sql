-- rows: 20
-- total: 41
-- sources: ["demo"]
-- first: ["2025-10-11T08:00:00.000Z","DE_LU","CH","congestion"]

-- statement 1
/* findFlowRows */ SELECT round(date_part('epoch', f.datetime) * 1000) AS datetime_ms, f.zone_from, f.zone_to, f.flow_type,
           f.flow_interpolated, f.net_flow_mw, f.price_from, f.price_to, f.capacity_mw, f.hours, f.derived
    FROM (
    SELECT r.datetime, r.sort_key, p.zone_from, p.zone_to,
           r.flow_type COLLATE "C" AS flow_type, r.flow_interpolated, r.net_flow_mw::float8, r.price_from::float8, r.price_to::float8,
           r.capacity_mw::float8, r.hours, r.derived
    FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.export_from_a, true) AS export_from_a, h.flow_type::text AS flow_type,
           (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END) AS flow_interpolated,
           coalesce(h.net_flow_mw, 0) AS net_flow_mw,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, h.flow_derived AS derived
    FROM border_hour h
    WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND h.border_id = ANY($3::smallint[]) AND h.flow_type::text = ANY($4::text[])) r
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to
      FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
      WHERE b.id = r.border_id
      OFFSET 0) p
    WHERE (r.datetime > $5::timestamptz
    OR (r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        > ($6, $7))
    OR ((r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        = ($8, $9)) AND r.flow_type COLLATE "C" > $10))) f
    ORDER BY f.sort_key, f.zone_from, f.zone_to, f.flow_type
    LIMIT $11;

-- statement 2
/* findFlowPositionIndex */ SELECT x.part, x.ms, x.rows, x.derived
    FROM (SELECT 0 AS part, p.ms, p.rows, p.derived FROM (
    SELECT round(date_part('epoch', f.sort_key) * 1000) AS ms, count(*)::int AS rows, bool_or(f.derived) AS derived
    FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.export_from_a, true) AS export_from_a, h.flow_type::text AS flow_type,
           (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END) AS flow_interpolated,
           coalesce(h.net_flow_mw, 0) AS net_flow_mw,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, h.flow_derived AS derived
    FROM border_hour h
    WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND h.border_id = ANY($3::smallint[]) AND h.flow_type::text = ANY($4::text[])) f GROUP BY f.sort_key ORDER BY f.sort_key) p UNION ALL
      SELECT 1 AS part, round(date_part('epoch', (c.day::timestamp AT TIME ZONE 'UTC')) * 1000) AS ms, sum(c.hours)::int AS rows,
             bool_or(c.derived_hours > 0) AS derived
      FROM border_daily c
      WHERE c.day >= $5::date AND c.day < $6::date AND c.border_id = ANY($7::smallint[]) AND c.flow_type::text = ANY($8::text[])
      GROUP BY c.day UNION ALL SELECT 2 AS part, p.ms, p.rows, p.derived FROM (
    SELECT round(date_part('epoch', f.sort_key) * 1000) AS ms, count(*)::int AS rows, bool_or(f.derived) AS derived
    FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.export_from_a, true) AS export_from_a, h.flow_type::text AS flow_type,
           (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END) AS flow_interpolated,
           coalesce(h.net_flow_mw, 0) AS net_flow_mw,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, h.flow_derived AS derived
    FROM border_hour h
    WHERE h.ts >= $9 AND h.ts < $10 AND h.flow_type IS NOT NULL AND h.border_id = ANY($11::smallint[]) AND h.flow_type::text = ANY($12::text[])) f GROUP BY f.sort_key ORDER BY f.sort_key) p) x
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
      WHERE d.sources = a.sources AND d.day >= $1::date AND d.day < $2::date AND d.border_id = ANY($3::smallint[]))
    ORDER BY 1;
