-- Webhooks: signing secrets, events with their delivery state, the attempt log; a call's evaluation status.
-- CreateEnum
CREATE TYPE "webhook_delivery_status" AS ENUM ('pending', 'delivered', 'failed');

-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "evaluatedAt" TIMESTAMPTZ(6),
ADD COLUMN     "evaluationError" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "evaluationStatus" TEXT NOT NULL DEFAULT 'none';

-- CreateTable
CREATE TABLE "webhook_secrets" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "secret" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" SERIAL NOT NULL,
    "messageId" TEXT NOT NULL,
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER,
    "callId" INTEGER,
    "type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "streamKey" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "webhook_delivery_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveringUntil" TIMESTAMPTZ(6),
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" SERIAL NOT NULL,
    "eventId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "latencyMs" INTEGER NOT NULL,
    "responseBody" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_secrets_accountId_createdAt_idx" ON "webhook_secrets"("accountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_events_messageId_key" ON "webhook_events"("messageId");

-- CreateIndex
CREATE INDEX "webhook_events_streamKey_status_id_idx" ON "webhook_events"("streamKey", "status", "id");

-- CreateIndex
CREATE INDEX "webhook_events_accountId_id_idx" ON "webhook_events"("accountId", "id");

-- CreateIndex
CREATE INDEX "webhook_events_status_nextAttemptAt_idx" ON "webhook_events"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "webhook_events_callId_idx" ON "webhook_events"("callId");

-- CreateIndex
CREATE INDEX "webhook_attempts_eventId_id_idx" ON "webhook_attempts"("eventId", "id");

-- AddForeignKey
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

