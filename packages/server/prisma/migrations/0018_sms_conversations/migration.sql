-- AlterEnum
ALTER TYPE "conversation_channel" ADD VALUE 'sms';

-- AlterEnum
ALTER TYPE "text_status" ADD VALUE 'scheduled';

-- DropIndex
DROP INDEX "conversations_assistantId_customerIdentifier_key";

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "textQuietEnd" INTEGER,
ADD COLUMN     "textQuietStart" INTEGER;

-- AlterTable
ALTER TABLE "leads" ADD COLUMN     "blacklistReason" TEXT;

-- AlterTable
ALTER TABLE "text_messages" ADD COLUMN     "claimedAt" TIMESTAMPTZ(6),
ADD COLUMN     "messageId" INTEGER,
ADD COLUMN     "sendAt" TIMESTAMPTZ(6);

-- CreateIndex
CREATE UNIQUE INDEX "conversations_assistantId_channel_customerIdentifier_key" ON "conversations"("assistantId", "channel", "customerIdentifier");

-- CreateIndex
CREATE INDEX "text_messages_status_sendAt_idx" ON "text_messages"("status", "sendAt");

-- CreateIndex
CREATE INDEX "text_messages_conversationId_id_idx" ON "text_messages"("conversationId", "id");

