-- One border's signed flows over a range by an index-only scan (flow duration curves): each heap
-- page holds the same hour of every border, so one border's 20 years read from the heap touch
-- nearly every page of the table (1.6 GB for 175,000 rows).
-- CreateIndex
CREATE INDEX "border_hour_border_id_ts_net_flow_mw_export_from_a_idx" ON "border_hour"("border_id", "ts", "net_flow_mw", "export_from_a");
