-- CreateEnum
CREATE TYPE "DataSource" AS ENUM ('demo', 'entsoe');

-- CreateEnum
CREATE TYPE "FlowType" AS ENUM ('convergence', 'congestion', 'counter_intuitive', 'outage');

-- CreateEnum
CREATE TYPE "IngestionStatus" AS ENUM ('running', 'done', 'failed');

-- CreateTable
CREATE TABLE "zone" (
    "id" SMALLSERIAL NOT NULL,
    "code" TEXT NOT NULL,
    "eic" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL,

    CONSTRAINT "zone_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "border" (
    "id" SMALLSERIAL NOT NULL,
    "zone_a_id" SMALLINT NOT NULL,
    "zone_b_id" SMALLINT NOT NULL,

    CONSTRAINT "border_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_point" (
    "zone_id" SMALLINT NOT NULL,
    "ts" TIMESTAMPTZ(0) NOT NULL,
    "period_minutes" SMALLINT NOT NULL,
    "price_eur_mwh" DOUBLE PRECISION NOT NULL,
    "interpolated" BOOLEAN NOT NULL DEFAULT false,
    "source" "DataSource" NOT NULL,

    CONSTRAINT "price_point_pkey" PRIMARY KEY ("zone_id","ts")
);

-- CreateTable
CREATE TABLE "price_daily" (
    "zone_id" SMALLINT NOT NULL,
    "day" DATE NOT NULL,
    "weighted_sum" DOUBLE PRECISION NOT NULL,
    "minutes" INTEGER NOT NULL,
    "interpolated" BOOLEAN NOT NULL,
    "sources" "DataSource"[],

    CONSTRAINT "price_daily_pkey" PRIMARY KEY ("zone_id","day")
);

-- CreateTable
CREATE TABLE "border_hour" (
    "border_id" SMALLINT NOT NULL,
    "ts" TIMESTAMPTZ(0) NOT NULL,
    "physical_ab_mw" DOUBLE PRECISION,
    "physical_ba_mw" DOUBLE PRECISION,
    "physical_interpolated" BOOLEAN NOT NULL DEFAULT false,
    "physical_source" "DataSource",
    "scheduled_ab_mw" DOUBLE PRECISION,
    "scheduled_ba_mw" DOUBLE PRECISION,
    "scheduled_source" "DataSource",
    "ntc_ab_mw" DOUBLE PRECISION,
    "ntc_ba_mw" DOUBLE PRECISION,
    "ntc_source" "DataSource",
    "flow_type" "FlowType",
    "export_from_a" BOOLEAN,
    "net_flow_mw" DOUBLE PRECISION,
    "price_a_eur_mwh" DOUBLE PRECISION,
    "price_b_eur_mwh" DOUBLE PRECISION,
    "flow_derived" BOOLEAN NOT NULL DEFAULT false,
    "scheduled_flow_type" "FlowType",
    "scheduled_export_from_a" BOOLEAN,

    CONSTRAINT "border_hour_pkey" PRIMARY KEY ("border_id","ts")
);

-- CreateTable
CREATE TABLE "border_outage" (
    "id" SERIAL NOT NULL,
    "border_id" SMALLINT NOT NULL,
    "starts_at" TIMESTAMPTZ(0) NOT NULL,
    "ends_at" TIMESTAMPTZ(0) NOT NULL,
    "planned" BOOLEAN NOT NULL DEFAULT true,
    "reason" TEXT,
    "mrid" TEXT,
    "source" "DataSource" NOT NULL,

    CONSTRAINT "border_outage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ingestion_run" (
    "id" SERIAL NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "status" "IngestionStatus" NOT NULL,
    "args" JSONB NOT NULL,
    "error" TEXT,

    CONSTRAINT "ingestion_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ingestion_window" (
    "id" SERIAL NOT NULL,
    "run_id" INTEGER NOT NULL,
    "item" TEXT NOT NULL,
    "area_key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(0) NOT NULL,
    "window_end" TIMESTAMPTZ(0) NOT NULL,
    "status" "IngestionStatus" NOT NULL,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "finished_at" TIMESTAMPTZ(3),
    "error" TEXT,

    CONSTRAINT "ingestion_window_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "zone_code_key" ON "zone"("code");

-- CreateIndex
CREATE UNIQUE INDEX "zone_eic_key" ON "zone"("eic");

-- CreateIndex
CREATE UNIQUE INDEX "border_zone_a_id_zone_b_id_key" ON "border"("zone_a_id", "zone_b_id");

-- CreateIndex
CREATE INDEX "price_point_ts_idx" ON "price_point"("ts");

-- CreateIndex
CREATE INDEX "price_daily_day_idx" ON "price_daily"("day");

-- CreateIndex
CREATE INDEX "border_hour_ts_idx" ON "border_hour"("ts");

-- CreateIndex
CREATE UNIQUE INDEX "border_outage_border_id_starts_at_ends_at_key" ON "border_outage"("border_id", "starts_at", "ends_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE UNIQUE INDEX "ingestion_window_item_area_key_window_start_window_end_key" ON "ingestion_window"("item", "area_key", "window_start", "window_end");

-- AddForeignKey
ALTER TABLE "border" ADD CONSTRAINT "border_zone_a_id_fkey" FOREIGN KEY ("zone_a_id") REFERENCES "zone"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "border" ADD CONSTRAINT "border_zone_b_id_fkey" FOREIGN KEY ("zone_b_id") REFERENCES "zone"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_point" ADD CONSTRAINT "price_point_zone_id_fkey" FOREIGN KEY ("zone_id") REFERENCES "zone"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_daily" ADD CONSTRAINT "price_daily_zone_id_fkey" FOREIGN KEY ("zone_id") REFERENCES "zone"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "border_hour" ADD CONSTRAINT "border_hour_border_id_fkey" FOREIGN KEY ("border_id") REFERENCES "border"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "border_outage" ADD CONSTRAINT "border_outage_border_id_fkey" FOREIGN KEY ("border_id") REFERENCES "border"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ingestion_window" ADD CONSTRAINT "ingestion_window_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "ingestion_run"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
