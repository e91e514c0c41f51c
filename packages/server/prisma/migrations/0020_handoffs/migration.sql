-- CreateEnum
CREATE TYPE "transfer_mode" AS ENUM ('cold', 'warm');

-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "activeAssistantId" INTEGER,
ADD COLUMN     "handoffTrail" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "humanRequestedAt" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "transfer_destinations" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "phoneNumber" VARCHAR(32),
    "sipUri" VARCHAR(255),
    "description" TEXT NOT NULL,
    "mode" "transfer_mode" NOT NULL DEFAULT 'cold',
    "timezone" TEXT NOT NULL,
    "businessHours" JSONB,
    "briefingInstructions" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "transfer_destinations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assistant_handoff_settings" (
    "assistantId" INTEGER NOT NULL,
    "accountId" INTEGER NOT NULL,
    "requestHuman" BOOLEAN NOT NULL DEFAULT false,
    "timezone" TEXT NOT NULL,
    "humanHours" JSONB,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "assistant_handoff_settings_pkey" PRIMARY KEY ("assistantId")
);

-- CreateTable
CREATE TABLE "assistant_handoff_targets" (
    "assistantId" INTEGER NOT NULL,
    "targetAssistantId" INTEGER NOT NULL,
    "accountId" INTEGER NOT NULL,
    "description" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "assistant_handoff_targets_pkey" PRIMARY KEY ("assistantId","targetAssistantId")
);

-- CreateIndex
CREATE INDEX "transfer_destinations_assistantId_id_idx" ON "transfer_destinations"("assistantId", "id");

-- CreateIndex
CREATE INDEX "transfer_destinations_accountId_idx" ON "transfer_destinations"("accountId");

-- CreateIndex
CREATE INDEX "assistant_handoff_targets_targetAssistantId_idx" ON "assistant_handoff_targets"("targetAssistantId");

-- CreateIndex
CREATE INDEX "conversations_accountId_humanRequestedAt_idx" ON "conversations"("accountId", "humanRequestedAt");

-- AddForeignKey
ALTER TABLE "transfer_destinations" ADD CONSTRAINT "transfer_destinations_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistant_handoff_settings" ADD CONSTRAINT "assistant_handoff_settings_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistant_handoff_targets" ADD CONSTRAINT "assistant_handoff_targets_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistant_handoff_targets" ADD CONSTRAINT "assistant_handoff_targets_targetAssistantId_fkey" FOREIGN KEY ("targetAssistantId") REFERENCES "assistants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

