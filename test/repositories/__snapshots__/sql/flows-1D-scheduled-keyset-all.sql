-- rows: 20
-- total: 7154
-- sources: ["demo"]
-- first: ["2025-09-23T00:00:00.000Z","BE","NL","convergence"]

-- statement 1
/* findFlowRows */ SELECT round(date_part('epoch', f.datetime) * 1000) AS datetime_ms, f.zone_from, f.zone_to, f.flow_type,
           f.flow_interpolated, f.net_flow_mw, f.price_from, f.price_to, f.capacity_mw, f.hours, f.derived
    FROM (
    SELECT r.datetime, r.sort_key, p.zone_from, p.zone_to,
           r.flow_type COLLATE "C" AS flow_type, r.flow_interpolated, r.net_flow_mw::float8, r.price_from::float8, r.price_to::float8,
           r.capacity_mw::float8, r.hours, r.derived
    FROM (
    SELECT y.*, y.datetime AS sort_key FROM (
      SELECT date_bin('1 day', x.datetime, timestamptz '2000-01-03 00:00:00+00') AS datetime, x.border_id, x.export_from_a, x.flow_type,
             bool_or(x.flow_interpolated) AS flow_interpolated, avg(x.net_flow_mw) AS net_flow_mw,
             avg(x.price_from) AS price_from, avg(x.price_to) AS price_to, avg(x.capacity_mw) AS capacity_mw,
             count(*)::int AS hours, bool_or(x.derived) AS derived
      FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.scheduled_export_from_a, true) AS export_from_a, h.scheduled_flow_type::text AS flow_type,
           h.scheduled_interpolated AS flow_interpolated,
           abs(coalesce(h.scheduled_ab_mw, 0) - coalesce(h.scheduled_ba_mw, 0)) AS net_flow_mw,
           CASE WHEN coalesce(h.scheduled_export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.scheduled_export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.scheduled_export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, false AS derived
    FROM border_hour h
    WHERE h.ts >= $1 AND h.ts < $2 AND h.scheduled_flow_type IS NOT NULL  ) x GROUP BY 1, 2, 3, 4) y) r
    JOIN border b ON b.id = r.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
    CROSS JOIN LATERAL (
      SELECT (CASE WHEN r.export_from_a THEN za.code ELSE zb.code END) COLLATE "C" AS zone_from,
             (CASE WHEN r.export_from_a THEN zb.code ELSE za.code END) COLLATE "C" AS zone_to) p
    WHERE (r.datetime > $3::timestamptz
    OR (r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        > ($4, $5))
    OR ((r.border_id, r.export_from_a) IN (
  SELECT b.id, d.ab FROM border b JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
  CROSS JOIN (VALUES (true), (false)) AS d(ab)
  WHERE ((CASE WHEN d.ab THEN za.code ELSE zb.code END) COLLATE "C", (CASE WHEN d.ab THEN zb.code ELSE za.code END) COLLATE "C")
        = ($6, $7)) AND r.flow_type COLLATE "C" > $8))) f
    ORDER BY f.sort_key, f.zone_from, f.zone_to, f.flow_type
    LIMIT $9;

-- statement 2
/* countFlows */ SELECT count(*)::int AS total, bool_or(f.derived) AS derived FROM (
    SELECT y.*, y.datetime AS sort_key FROM (
      SELECT date_bin('1 day', x.datetime, timestamptz '2000-01-03 00:00:00+00') AS datetime, x.border_id, x.export_from_a, x.flow_type,
             bool_or(x.flow_interpolated) AS flow_interpolated, avg(x.net_flow_mw) AS net_flow_mw,
             avg(x.price_from) AS price_from, avg(x.price_to) AS price_to, avg(x.capacity_mw) AS capacity_mw,
             count(*)::int AS hours, bool_or(x.derived) AS derived
      FROM (
    SELECT h.ts AS datetime, h.ts AS sort_key, h.border_id, coalesce(h.scheduled_export_from_a, true) AS export_from_a, h.scheduled_flow_type::text AS flow_type,
           h.scheduled_interpolated AS flow_interpolated,
           abs(coalesce(h.scheduled_ab_mw, 0) - coalesce(h.scheduled_ba_mw, 0)) AS net_flow_mw,
           CASE WHEN coalesce(h.scheduled_export_from_a, true) THEN h.price_a_eur_mwh ELSE h.price_b_eur_mwh END AS price_from,
           CASE WHEN coalesce(h.scheduled_export_from_a, true) THEN h.price_b_eur_mwh ELSE h.price_a_eur_mwh END AS price_to,
           CASE WHEN coalesce(h.scheduled_export_from_a, true) THEN h.ntc_ab_mw ELSE h.ntc_ba_mw END AS capacity_mw,
           1 AS hours, false AS derived
    FROM border_hour h
    WHERE h.ts >= $1 AND h.ts < $2 AND h.scheduled_flow_type IS NOT NULL  ) x GROUP BY 1, 2, 3, 4) y) f;

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
