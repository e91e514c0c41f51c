-- The campaign dialer: per-campaign concurrency and number rotation; per-lead progress through its numbers.
-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "maxConcurrentCalls" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "rotationCursor" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "leads" ADD COLUMN     "activeCallId" INTEGER,
ADD COLUMN     "claimedAt" TIMESTAMPTZ(6),
ADD COLUMN     "contactAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "contactIndex" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastCallId" INTEGER,
ADD COLUMN     "nextAttemptAt" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "secondary_contacts" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "leads_campaignId_status_nextAttemptAt_idx" ON "leads"("campaignId", "status", "nextAttemptAt");

