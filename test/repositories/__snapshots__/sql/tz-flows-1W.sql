-- total: 112
-- first: [["2025-10-19T21:00:00.000Z","FI","SE_3","convergence",118]]

-- statement 1
/* findFlowPositions */ SELECT round(date_part('epoch', f.sort_key) * 1000) AS ms, count(*)::int AS rows, bool_or(f.derived) AS derived
    FROM (
    SELECT y.*, y.datetime AS sort_key FROM (
      SELECT date_trunc('week', x.datetime, tz.name) AS datetime, x.border_id, x.export_from_a, x.flow_type,
             bool_or(x.flow_interpolated) AS flow_interpolated, avg(x.net_flow_mw) AS net_flow_mw,
             avg(x.price_from) FILTER (WHERE x.price_from IS NOT NULL AND x.price_to IS NOT NULL) AS price_from, avg(x.price_to) FILTER (WHERE x.price_from IS NOT NULL AND x.price_to IS NOT NULL) AS price_to,
             avg(x.capacity_mw) AS capacity_mw, count(*)::int AS hours, bool_or(x.derived) AS derived
      FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.export_from_a, true) AS export_from_a, h.flow_type::text AS flow_type,
           (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END) AS flow_interpolated,
           coalesce(h.net_flow_mw, 0) AS net_flow_mw,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, h.flow_derived AS derived
    FROM border_hour h
    WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND h.border_id = ANY($3::smallint[]) ) x JOIN unnest($4::smallint[], $5::text[]) AS tz(border_id, name) ON tz.border_id = x.border_id
      GROUP BY 1, 2, 3, 4) y) f GROUP BY f.sort_key ORDER BY f.sort_key;

-- statement 2
/* findFlowRows */ SELECT round(date_part('epoch', f.datetime) * 1000) AS datetime_ms, f.zone_from, f.zone_to, f.flow_type,
           f.flow_interpolated, f.net_flow_mw, f.price_from, f.price_to, f.capacity_mw, f.hours, f.derived
    FROM (
    SELECT r.datetime, r.sort_key, p.zone_from, p.zone_to,
           r.flow_type COLLATE "C" AS flow_type, r.flow_interpolated, r.net_flow_mw::float8, r.price_from::float8, r.price_to::float8,
           r.capacity_mw::float8, r.hours, r.derived
    FROM (
    SELECT y.*, y.datetime AS sort_key FROM (
      SELECT date_trunc('week', x.datetime, tz.name) AS datetime, x.border_id, x.export_from_a, x.flow_type,
             bool_or(x.flow_interpolated) AS flow_interpolated, avg(x.net_flow_mw) AS net_flow_mw,
             avg(x.price_from) FILTER (WHERE x.price_from IS NOT NULL AND x.price_to IS NOT NULL) AS price_from, avg(x.price_to) FILTER (WHERE x.price_from IS NOT NULL AND x.price_to IS NOT NULL) AS price_to,
             avg(x.capacity_mw) AS capacity_mw, count(*)::int AS hours, bool_or(x.derived) AS derived
      FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.export_from_a, true) AS export_from_a, h.flow_type::text AS flow_type,
           (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END) AS flow_interpolated,
           coalesce(h.net_flow_mw, 0) AS net_flow_mw,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, h.flow_derived AS derived
    FROM border_hour h
    WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND h.border_id = ANY($3::smallint[]) ) x JOIN unnest($4::smallint[], $5::text[]) AS tz(border_id, name) ON tz.border_id = x.border_id
      GROUP BY 1, 2, 3, 4) y) r
    JOIN border b ON b.id = r.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to) p
    ) f
    ORDER BY f.sort_key, f.zone_from, f.zone_to, f.flow_type
    LIMIT $6 OFFSET $7;

-- statement 3
/* findFlowRows */ SELECT round(date_part('epoch', f.datetime) * 1000) AS datetime_ms, f.zone_from, f.zone_to, f.flow_type,
           f.flow_interpolated, f.net_flow_mw, f.price_from, f.price_to, f.capacity_mw, f.hours, f.derived
    FROM (
    SELECT r.datetime, r.sort_key, p.zone_from, p.zone_to,
           r.flow_type COLLATE "C" AS flow_type, r.flow_interpolated, r.net_flow_mw::float8, r.price_from::float8, r.price_to::float8,
           r.capacity_mw::float8, r.hours, r.derived
    FROM (
    SELECT y.*, y.datetime AS sort_key FROM (
      SELECT date_trunc('week', x.datetime, tz.name) AS datetime, x.border_id, x.export_from_a, x.flow_type,
             bool_or(x.flow_interpolated) AS flow_interpolated, avg(x.net_flow_mw) AS net_flow_mw,
             avg(x.price_from) FILTER (WHERE x.price_from IS NOT NULL AND x.price_to IS NOT NULL) AS price_from, avg(x.price_to) FILTER (WHERE x.price_from IS NOT NULL AND x.price_to IS NOT NULL) AS price_to,
             avg(x.capacity_mw) AS capacity_mw, count(*)::int AS hours, bool_or(x.derived) AS derived
      FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.export_from_a, true) AS export_from_a, h.flow_type::text AS flow_type,
           (CASE WHEN h.flow_derived THEN h.scheduled_interpolated ELSE h.physical_interpolated END) AS flow_interpolated,
           coalesce(h.net_flow_mw, 0) AS net_flow_mw,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, h.flow_derived AS derived
    FROM border_hour h
    WHERE h.ts >= $1 AND h.ts < $2 AND h.flow_type IS NOT NULL AND h.border_id = ANY($3::smallint[]) ) x JOIN unnest($4::smallint[], $5::text[]) AS tz(border_id, name) ON tz.border_id = x.border_id
      GROUP BY 1, 2, 3, 4) y) r
    JOIN border b ON b.id = r.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to) p
    WHERE (r.datetime > $6::timestamptz
    OR (r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        > ($7, $8))
    OR ((r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        = ($9, $10)) AND r.flow_type COLLATE "C" > $11)) AND r.datetime >= $12::timestamptz) f
    ORDER BY f.sort_key, f.zone_from, f.zone_to, f.flow_type
    LIMIT $13;
