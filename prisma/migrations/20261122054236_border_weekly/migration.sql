-- CreateTable
CREATE TABLE "border_weekly" (
    "border_id" SMALLINT NOT NULL,
    "week" DATE NOT NULL,
    "flow_type" "FlowType" NOT NULL,
    "export_from_a" BOOLEAN NOT NULL,
    "hours" INTEGER NOT NULL,
    "interpolated_hours" INTEGER NOT NULL,
    "derived_hours" INTEGER NOT NULL,
    "net_flow_sum" DOUBLE PRECISION NOT NULL,
    "price_hours" INTEGER NOT NULL,
    "price_from_sum" DOUBLE PRECISION NOT NULL,
    "price_to_sum" DOUBLE PRECISION NOT NULL,
    "capacity_sum" DOUBLE PRECISION NOT NULL,
    "capacity_hours" INTEGER NOT NULL,
    "sources" "DataSource"[],

    CONSTRAINT "border_weekly_pkey" PRIMARY KEY ("border_id","week","flow_type","export_from_a")
);

-- CreateIndex
CREATE INDEX "border_weekly_week_idx" ON "border_weekly"("week");

-- Backfill: border_weekly from the border_daily rows already stored (the statement refreshFlowRollups
-- runs per window, src/repositories/flow-rollup.ts, over every day).
INSERT INTO "border_weekly" ("border_id", "week", "flow_type", "export_from_a", "hours", "interpolated_hours", "derived_hours",
                             "net_flow_sum", "price_hours", "price_from_sum", "price_to_sum", "capacity_sum", "capacity_hours", "sources")
SELECT s.border_id, s.week, s.flow_type, s.export_from_a, s.hours, s.interpolated_hours, s.derived_hours, s.net_flow_sum,
       s.price_hours, s.price_from_sum, s.price_to_sum, s.capacity_sum, s.capacity_hours, coalesce(src.sources, '{}')
FROM (SELECT d.border_id, date_trunc('week', d.day::timestamp)::date AS week, d.flow_type, d.export_from_a,
             sum(d.hours)::int AS hours, sum(d.interpolated_hours)::int AS interpolated_hours,
             sum(d.derived_hours)::int AS derived_hours, sum(d.net_flow_sum) AS net_flow_sum,
             sum(d.price_hours)::int AS price_hours, sum(d.price_from_sum) AS price_from_sum,
             sum(d.price_to_sum) AS price_to_sum, sum(d.capacity_sum) AS capacity_sum,
             sum(d.capacity_hours)::int AS capacity_hours
      FROM "border_daily" d
      GROUP BY 1, 2, 3, 4) s
LEFT JOIN (SELECT d.border_id, date_trunc('week', d.day::timestamp)::date AS week, d.flow_type, d.export_from_a,
                  array_agg(DISTINCT u.source ORDER BY u.source) AS sources
           FROM "border_daily" d CROSS JOIN LATERAL unnest(d.sources) AS u(source)
           GROUP BY 1, 2, 3, 4) src
  ON src.border_id = s.border_id AND src.week = s.week AND src.flow_type = s.flow_type AND src.export_from_a = s.export_from_a;
