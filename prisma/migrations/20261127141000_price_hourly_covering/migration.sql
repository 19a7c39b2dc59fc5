-- The price KPIs read a range of every zone's hours in zone order by an index-only scan: the heap
-- holds each hour of every zone together, so one zone's year touches every page of that year, and
-- reading all zones through the primary key visits each page once per zone (or sorts 262,800 rows).
-- CreateIndex
CREATE INDEX "price_hourly_zone_id_hour_price_eur_mwh_interpolated_peak_idx" ON "price_hourly"("zone_id", "hour", "price_eur_mwh", "interpolated", "peak");
