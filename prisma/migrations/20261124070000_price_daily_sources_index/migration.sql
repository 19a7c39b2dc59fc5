-- CreateIndex
CREATE INDEX "price_daily_sources_zone_id_day_idx" ON "price_daily"("sources", "zone_id", "day");
