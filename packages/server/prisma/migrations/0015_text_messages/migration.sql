-- CreateEnum
CREATE TYPE "text_direction" AS ENUM ('outbound', 'inbound');

-- CreateEnum
CREATE TYPE "text_status" AS ENUM ('queued', 'sent', 'delivered', 'undelivered', 'failed', 'received');

-- AlterEnum
ALTER TYPE "ledger_kind" ADD VALUE 'sms_debit';

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "textMessageId" INTEGER;

-- CreateTable
CREATE TABLE "text_messages" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "direction" "text_direction" NOT NULL,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "encoding" TEXT NOT NULL,
    "segments" INTEGER NOT NULL,
    "status" "text_status" NOT NULL,
    "providerName" TEXT NOT NULL,
    "providerMessageId" TEXT,
    "cost" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "conversationId" UUID,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "text_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "text_opt_outs" (
    "accountId" INTEGER NOT NULL,
    "accountNumber" TEXT NOT NULL,
    "customerNumber" TEXT NOT NULL,
    "optedOut" BOOLEAN NOT NULL,
    "keyword" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "text_opt_outs_pkey" PRIMARY KEY ("accountId","accountNumber","customerNumber")
);

-- CreateIndex
CREATE INDEX "text_messages_accountId_id_idx" ON "text_messages"("accountId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "text_messages_providerName_providerMessageId_key" ON "text_messages"("providerName", "providerMessageId");

-- CreateIndex
CREATE INDEX "ledger_entries_textMessageId_idx" ON "ledger_entries"("textMessageId");

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_textMessageId_fkey" FOREIGN KEY ("textMessageId") REFERENCES "text_messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "text_messages" ADD CONSTRAINT "text_messages_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "text_messages" ADD CONSTRAINT "text_messages_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "text_opt_outs" ADD CONSTRAINT "text_opt_outs_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

