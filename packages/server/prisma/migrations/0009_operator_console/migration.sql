-- The operator console: platform operators and suspended accounts; the conversations inbox (last
-- activity, unread marks).
-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "isOperator" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "suspendedAt" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "lastCustomerMessageId" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastMessageAt" TIMESTAMPTZ(6),
ADD COLUMN     "lastReadMessageId" INTEGER NOT NULL DEFAULT 0;

-- Conversations of before this migration: their last activity from their messages; all of them read,
-- so that the inbox does not open on every old conversation marked unread.
UPDATE "conversations" AS c
SET "lastMessageAt" = m."lastAt",
    "lastCustomerMessageId" = m."lastCustomerId",
    "lastReadMessageId" = m."lastCustomerId"
FROM (
  SELECT "conversationId",
         max("createdAt") AS "lastAt",
         COALESCE(max("id") FILTER (WHERE "role" = 'user'), 0) AS "lastCustomerId"
  FROM "messages"
  GROUP BY "conversationId"
) AS m
WHERE m."conversationId" = c."id";
