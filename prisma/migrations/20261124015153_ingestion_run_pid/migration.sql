-- AlterTable
ALTER TABLE "ingestion_run" ADD COLUMN     "pid" INTEGER;
