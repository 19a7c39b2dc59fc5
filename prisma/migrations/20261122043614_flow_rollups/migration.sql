-- CreateTable
CREATE TABLE "border_daily" (
    "border_id" SMALLINT NOT NULL,
    "day" DATE NOT NULL,
    "flow_type" "FlowType" NOT NULL,
    "export_from_a" BOOLEAN NOT NULL,
    "hours" INTEGER NOT NULL,
    "interpolated_hours" INTEGER NOT NULL,
    "derived_hours" INTEGER NOT NULL,
    "net_flow_sum" DOUBLE PRECISION NOT NULL,
    "price_hours" INTEGER NOT NULL,
    "price_from_sum" DOUBLE PRECISION NOT NULL,
    "price_to_sum" DOUBLE PRECISION NOT NULL,
    "capacity_sum" DOUBLE PRECISION NOT NULL,
    "capacity_hours" INTEGER NOT NULL,
    "sources" "DataSource"[],

    CONSTRAINT "border_daily_pkey" PRIMARY KEY ("border_id","day","flow_type","export_from_a")
);

-- CreateTable
CREATE TABLE "zone_daily" (
    "zone_id" SMALLINT NOT NULL,
    "day" DATE NOT NULL,
    "ci_hours" INTEGER NOT NULL,
    "assessed_hours" INTEGER NOT NULL,

    CONSTRAINT "zone_daily_pkey" PRIMARY KEY ("zone_id","day")
);

-- CreateIndex
CREATE INDEX "border_daily_day_idx" ON "border_daily"("day");

-- CreateIndex
CREATE INDEX "zone_daily_day_idx" ON "zone_daily"("day");
