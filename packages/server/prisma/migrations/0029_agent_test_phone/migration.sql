-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "test" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "test_scenario_results" ADD COLUMN     "callId" INTEGER;

