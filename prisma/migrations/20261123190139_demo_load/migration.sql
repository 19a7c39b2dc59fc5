-- CreateTable
CREATE TABLE "demo_load" (
    "id" SERIAL NOT NULL,
    "range_from" TIMESTAMPTZ(0) NOT NULL,
    "range_to" TIMESTAMPTZ(0) NOT NULL,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "demo_load_pkey" PRIMARY KEY ("id")
);

-- A demo data set loaded before this table existed is complete when its last step, the weekly
-- flow rollup, ran; an interrupted one (demo prices, no weekly rollup) is left without a row.
INSERT INTO "demo_load" ("range_from", "range_to")
SELECT min("ts"), max("ts") + interval '1 hour' FROM "price_point" WHERE "source" = 'demo'
HAVING count(*) > 0
   AND EXISTS (SELECT 1 FROM "border_hour" WHERE "physical_source" = 'demo')
   AND EXISTS (SELECT 1 FROM "border_weekly");
