-- Live calls: the carrier id of a call, why it ended, its limits, and per-minute charges in the ledger
-- (minute N of a call is charged at most once, by the unique index on (callId, callMinute)).

-- AlterEnum
ALTER TYPE "ledger_kind" ADD VALUE 'call_debit';

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "callId" INTEGER,
ADD COLUMN     "callMinute" INTEGER;

-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "endReason" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "maxDuration" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "providerCallId" TEXT,
ADD COLUMN     "providerName" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "requestedEnd" "call_status";

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_callId_callMinute_key" ON "ledger_entries"("callId", "callMinute");

-- CreateIndex
CREATE UNIQUE INDEX "calls_providerCallId_key" ON "calls"("providerCallId");

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_callId_fkey" FOREIGN KEY ("callId") REFERENCES "calls"("id") ON DELETE SET NULL ON UPDATE CASCADE;

