-- Webhooks: the first signing secret is shown to its owner (shownAt), and the retention sweep of the
-- delivery log. Call recordings on PostgreSQL: the WAV file in parts, deleted with the call.
-- AlterTable
ALTER TABLE "webhook_secrets" ADD COLUMN "shownAt" TIMESTAMPTZ(6);

-- Secrets of before this migration that a rotation returned cannot be told from those made for a
-- delivery: all count as shown, so that no account's working secret is replaced.
UPDATE "webhook_secrets" SET "shownAt" = "createdAt";

-- CreateIndex
CREATE INDEX "webhook_events_status_updatedAt_idx" ON "webhook_events"("status", "updatedAt");

-- CreateTable
CREATE TABLE "call_recording_parts" (
    "callId" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "call_recording_parts_pkey" PRIMARY KEY ("callId","part")
);

-- AddForeignKey
ALTER TABLE "call_recording_parts" ADD CONSTRAINT "call_recording_parts_callId_fkey" FOREIGN KEY ("callId") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
