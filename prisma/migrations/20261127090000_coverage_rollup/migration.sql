-- CreateEnum
CREATE TYPE "CoverageKind" AS ENUM ('prices', 'physical', 'scheduled', 'ntc', 'outages');

-- CreateTable
CREATE TABLE "coverage" (
    "kind" "CoverageKind" NOT NULL,
    "subject_id" SMALLINT NOT NULL,
    "source" TEXT NOT NULL,
    "first_start" TIMESTAMPTZ(0) NOT NULL,
    "last_start" TIMESTAMPTZ(0) NOT NULL,
    "last_end" TIMESTAMPTZ(0) NOT NULL,

    CONSTRAINT "coverage_pkey" PRIMARY KEY ("kind","subject_id","source")
);

-- Backfill from the stored facts: per kind, subject and source, the first and last period start;
-- the last period's end (prices: its own length; border-hours: one hour; outages: the latest end).
INSERT INTO "coverage" ("subject_id", "kind", "source", "first_start", "last_start", "last_end")
SELECT c."subject_id", 'prices', c."source", c."first_start", c."last_start",
       (SELECT p."ts" + make_interval(mins => p."period_minutes") FROM "price_point" p WHERE p."zone_id" = c."subject_id" AND p."ts" = c."last_start")
FROM (SELECT "zone_id" AS "subject_id", "source"::text AS "source", min("ts") AS "first_start", max("ts") AS "last_start"
      FROM "price_point" GROUP BY 1, 2) c;

INSERT INTO "coverage" ("subject_id", "kind", "source", "first_start", "last_start", "last_end")
SELECT "border_id", 'physical', coalesce("physical_source"::text, ''), min("ts"), max("ts"), max("ts") + interval '1 hour'
FROM "border_hour" WHERE "physical_ab_mw" IS NOT NULL OR "physical_ba_mw" IS NOT NULL GROUP BY 1, 3;

INSERT INTO "coverage" ("subject_id", "kind", "source", "first_start", "last_start", "last_end")
SELECT "border_id", 'scheduled', coalesce("scheduled_source"::text, ''), min("ts"), max("ts"), max("ts") + interval '1 hour'
FROM "border_hour" WHERE "scheduled_ab_mw" IS NOT NULL OR "scheduled_ba_mw" IS NOT NULL GROUP BY 1, 3;

INSERT INTO "coverage" ("subject_id", "kind", "source", "first_start", "last_start", "last_end")
SELECT "border_id", 'ntc', coalesce("ntc_source"::text, ''), min("ts"), max("ts"), max("ts") + interval '1 hour'
FROM "border_hour" WHERE "ntc_ab_mw" IS NOT NULL OR "ntc_ba_mw" IS NOT NULL GROUP BY 1, 3;

INSERT INTO "coverage" ("subject_id", "kind", "source", "first_start", "last_start", "last_end")
SELECT "border_id", 'outages', "source"::text, min("starts_at"), max("starts_at"), max("ends_at")
FROM "border_outage" GROUP BY 1, 3;
