-- Reads of a few zones over a range filter the zone in this index instead of fetching every zone's
-- points from the heap (PostgreSQL preferred the (ts) index over the key for them: one zone's month
-- read 89,280 points for 2,976); reads of every zone still scan it by time.
-- DropIndex
DROP INDEX "price_point_ts_idx";

-- CreateIndex
CREATE INDEX "price_point_ts_zone_id_idx" ON "price_point"("ts", "zone_id");
