-- As price_point's: reads of a few borders over a range filter the border in this index instead of
-- fetching every border's hours from the heap (one border's month: 43,936 buffers for 744 rows).
-- DropIndex
DROP INDEX "border_hour_ts_idx";

-- CreateIndex
CREATE INDEX "border_hour_ts_border_id_idx" ON "border_hour"("ts", "border_id");
