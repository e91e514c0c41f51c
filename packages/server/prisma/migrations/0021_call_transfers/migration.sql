-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "transferDestinationName" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "transferState" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "transferredFromCallId" INTEGER,
ADD COLUMN     "transferredToCallId" INTEGER;

-- CreateIndex
CREATE INDEX "calls_transferredFromCallId_idx" ON "calls"("transferredFromCallId");

