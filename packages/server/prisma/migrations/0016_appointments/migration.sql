-- CreateEnum
CREATE TYPE "appointment_status" AS ENUM ('pending', 'booked', 'cancelled');

-- CreateTable
CREATE TABLE "assistant_appointment_types" (
    "assistantId" INTEGER NOT NULL,
    "appointmentTypeId" INTEGER NOT NULL,

    CONSTRAINT "assistant_appointment_types_pkey" PRIMARY KEY ("assistantId","appointmentTypeId")
);

-- CreateTable
CREATE TABLE "appointments" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "appointmentTypeId" INTEGER NOT NULL,
    "appointmentTypeName" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "connectionId" INTEGER NOT NULL,
    "provider" "calendar_provider_kind" NOT NULL,
    "externalId" TEXT NOT NULL,
    "startsAt" TIMESTAMPTZ(6) NOT NULL,
    "endsAt" TIMESTAMPTZ(6) NOT NULL,
    "status" "appointment_status" NOT NULL DEFAULT 'booked',
    "customerName" TEXT NOT NULL,
    "customerPhone" TEXT,
    "customerEmail" TEXT,
    "notes" TEXT,
    "assistantId" INTEGER,
    "callId" INTEGER,
    "conversationId" UUID,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,
    "cancelledAt" TIMESTAMPTZ(6),

    CONSTRAINT "appointments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "assistant_appointment_types_appointmentTypeId_idx" ON "assistant_appointment_types"("appointmentTypeId");

-- CreateIndex
CREATE INDEX "appointments_accountId_startsAt_idx" ON "appointments"("accountId", "startsAt");

-- CreateIndex
CREATE INDEX "appointments_connectionId_status_startsAt_idx" ON "appointments"("connectionId", "status", "startsAt");

-- CreateIndex
CREATE INDEX "appointments_accountId_customerPhone_idx" ON "appointments"("accountId", "customerPhone");

-- CreateIndex
CREATE INDEX "appointments_accountId_customerEmail_idx" ON "appointments"("accountId", "customerEmail");

-- CreateIndex
CREATE INDEX "appointments_callId_idx" ON "appointments"("callId");

-- CreateIndex
CREATE INDEX "appointments_conversationId_idx" ON "appointments"("conversationId");

-- CreateIndex
CREATE UNIQUE INDEX "appointments_accountId_idempotencyKey_key" ON "appointments"("accountId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "assistant_appointment_types" ADD CONSTRAINT "assistant_appointment_types_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistant_appointment_types" ADD CONSTRAINT "assistant_appointment_types_appointmentTypeId_fkey" FOREIGN KEY ("appointmentTypeId") REFERENCES "appointment_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_callId_fkey" FOREIGN KEY ("callId") REFERENCES "calls"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

