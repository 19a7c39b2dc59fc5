-- CreateTable
CREATE TABLE "price_hourly" (
    "zone_id" SMALLINT NOT NULL,
    "hour" TIMESTAMPTZ(0) NOT NULL,
    "price_eur_mwh" DOUBLE PRECISION NOT NULL,
    "interpolated" BOOLEAN NOT NULL,
    "peak" BOOLEAN NOT NULL,

    CONSTRAINT "price_hourly_pkey" PRIMARY KEY ("zone_id","hour")
);

-- Backfill from the stored prices: per zone and UTC hour the time-weighted mean rounded to 1e-6
-- EUR/MWh (src/repositories/sql/time.ts hourlyPrices), whether any point is interpolated, and
-- whether the hour is a peak hour (Monday to Friday, 08:00-19:59 local in the zone's time zone).
INSERT INTO "price_hourly" ("zone_id", "hour", "price_eur_mwh", "interpolated", "peak")
SELECT h."zone_id", h."hour", h."price", h."interpolated",
       extract(isodow FROM h."hour" AT TIME ZONE z."time_zone") BETWEEN 1 AND 5
         AND extract(hour FROM h."hour" AT TIME ZONE z."time_zone") BETWEEN 8 AND 19
FROM (SELECT p."zone_id", date_bin('1 hour', p."ts", timestamptz '2000-01-03 00:00:00+00') AS "hour",
             round((sum(p."price_eur_mwh" * p."period_minutes") / sum(p."period_minutes"))::numeric, 6)::float8 AS "price",
             bool_or(p."interpolated") AS "interpolated"
      FROM "price_point" p GROUP BY 1, 2) h
JOIN "zone" z ON z."id" = h."zone_id";
