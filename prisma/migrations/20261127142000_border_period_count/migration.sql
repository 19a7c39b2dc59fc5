-- Row counts of the physical-basis flow queries per calendar month and year, border and flow type:
-- offset pages and totals of /flows read one row per period and key instead of every stored day.
-- CreateTable
CREATE TABLE "border_period_count" (
    "span_months" SMALLINT NOT NULL,
    "start" DATE NOT NULL,
    "border_id" SMALLINT NOT NULL,
    "flow_type" "FlowType" NOT NULL,
    "hours" INTEGER NOT NULL,
    "derived_hours" INTEGER NOT NULL,
    "days" INTEGER NOT NULL,
    "weeks" INTEGER NOT NULL,
    "week_derived_hours" INTEGER NOT NULL,

    CONSTRAINT "border_period_count_pkey" PRIMARY KEY ("span_months","start","border_id","flow_type")
);

-- A range of periods by an index-only scan (the counts are in the index).
-- CreateIndex
CREATE INDEX "border_period_count_counts_idx" ON "border_period_count"("span_months", "start", "border_id", "flow_type", "hours", "derived_hours", "days", "weeks", "week_derived_hours");

-- Backfill from the rollups already stored: the statements refreshFlowRollups runs per window
-- (src/repositories/flows/rollup.ts), over every month, then every year; in key order, so the rows
-- of a period share a few heap pages (a range of months reads those pages, not the whole table).
INSERT INTO "border_period_count" ("span_months", "start", "border_id", "flow_type", "hours", "derived_hours", "days", "weeks", "week_derived_hours")
SELECT 1, x.start, x.border_id, x.flow_type, sum(x.hours)::int, sum(x.derived_hours)::int, sum(x.days)::int,
       sum(x.weeks)::int, sum(x.week_derived_hours)::int
FROM (SELECT date_trunc('month', d.day::timestamp)::date AS start, d.border_id, d.flow_type, sum(d.hours) AS hours,
             sum(d.derived_hours) AS derived_hours, count(*) AS days, 0 AS weeks, 0 AS week_derived_hours
      FROM "border_daily" d
      GROUP BY 1, 2, 3
      UNION ALL
      SELECT date_trunc('month', w.week::timestamp)::date, w.border_id, w.flow_type, 0, 0, 0, count(*), sum(w.derived_hours)
      FROM "border_weekly" w
      GROUP BY 1, 2, 3) x
GROUP BY 2, 3, 4
ORDER BY 2, 3, 4;

INSERT INTO "border_period_count" ("span_months", "start", "border_id", "flow_type", "hours", "derived_hours", "days", "weeks", "week_derived_hours")
SELECT 12, date_trunc('year', c.start::timestamp)::date, c.border_id, c.flow_type, sum(c.hours)::int,
       sum(c.derived_hours)::int, sum(c.days)::int, sum(c.weeks)::int, sum(c.week_derived_hours)::int
FROM "border_period_count" c WHERE c.span_months = 1
GROUP BY 2, 3, 4
ORDER BY 2, 3, 4;
