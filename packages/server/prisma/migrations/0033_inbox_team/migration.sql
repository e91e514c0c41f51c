-- CreateEnum
CREATE TYPE "conversation_status" AS ENUM ('open', 'resolved');

-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "assigneeId" INTEGER,
ADD COLUMN     "browser" VARCHAR(100),
ADD COLUMN     "country" CHAR(2),
ADD COLUMN     "pageUrl" VARCHAR(2048),
ADD COLUMN     "resolvedAt" TIMESTAMPTZ(6),
ADD COLUMN     "status" "conversation_status" NOT NULL DEFAULT 'open';

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "browser" VARCHAR(100),
ADD COLUMN     "country" CHAR(2),
ADD COLUMN     "pageUrl" VARCHAR(2048);

-- CreateTable
CREATE TABLE "conversation_notes" (
    "id" SERIAL NOT NULL,
    "conversationId" UUID NOT NULL,
    "authorId" INTEGER,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversation_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_reads" (
    "conversationId" UUID NOT NULL,
    "userId" INTEGER NOT NULL,
    "lastReadMessageId" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "conversation_reads_pkey" PRIMARY KEY ("conversationId","userId")
);

-- CreateIndex
CREATE INDEX "conversation_notes_conversationId_id_idx" ON "conversation_notes"("conversationId", "id");

-- CreateIndex
CREATE INDEX "conversation_reads_userId_idx" ON "conversation_reads"("userId");

-- CreateIndex
CREATE INDEX "conversations_accountId_status_updatedAt_idx" ON "conversations"("accountId", "status", "updatedAt");

-- CreateIndex
CREATE INDEX "conversations_assigneeId_idx" ON "conversations"("assigneeId");

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Per-member read state starts where the account-level mark was: nothing read before becomes unread.
INSERT INTO "conversation_reads" ("conversationId", "userId", "lastReadMessageId")
SELECT c."id", u."id", c."lastReadMessageId"
FROM "conversations" c JOIN "users" u ON u."accountId" = c."accountId"
WHERE c."lastReadMessageId" > 0;
