-- Whole ISO weeks of every border in week order, with the hours of each flow type, by an
-- index-only scan (the flow-type summary at 1W): border_weekly's heap holds the rows in the order
-- the rollup refreshes wrote them, so a range of weeks read from it touches most of its pages.
-- CreateIndex
CREATE INDEX "border_weekly_week_border_id_flow_type_hours_idx" ON "border_weekly"("week", "border_id", "flow_type", "hours");
