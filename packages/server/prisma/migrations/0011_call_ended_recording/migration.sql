-- call.ended waits for the call's recording as it waits for its charges: where the recording stands
-- on the call, and what a held event still waits for on the event.
-- AlterTable
ALTER TABLE "calls" ADD COLUMN "recordingStatus" TEXT NOT NULL DEFAULT '';

-- Recordings stored before this migration.
UPDATE "calls" SET "recordingStatus" = 'stored' WHERE "recordingUrl" <> '';

-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN "heldFor" TEXT[] DEFAULT ARRAY[]::TEXT[];
