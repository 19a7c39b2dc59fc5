-- CreateIndex
CREATE INDEX "border_daily_sources_day_border_id_idx" ON "border_daily"("sources", "day", "border_id");
