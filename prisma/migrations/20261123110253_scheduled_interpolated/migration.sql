-- AlterTable
ALTER TABLE "border_hour" ADD COLUMN     "scheduled_interpolated" BOOLEAN NOT NULL DEFAULT false;
