-- CreateEnum
CREATE TYPE "calendar_provider_kind" AS ENUM ('caldav');

-- CreateEnum
CREATE TYPE "calendar_connection_status" AS ENUM ('active', 'broken');

-- CreateTable
CREATE TABLE "calendar_connections" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "provider" "calendar_provider_kind" NOT NULL,
    "url" TEXT NOT NULL,
    "readUrls" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "username" TEXT NOT NULL,
    "sealedCredentials" TEXT NOT NULL,
    "status" "calendar_connection_status" NOT NULL DEFAULT 'active',
    "lastError" TEXT,
    "checkedAt" TIMESTAMPTZ(6) NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calendar_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "appointment_types" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "connectionId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "durationMinutes" INTEGER NOT NULL,
    "bufferBeforeMinutes" INTEGER NOT NULL DEFAULT 0,
    "bufferAfterMinutes" INTEGER NOT NULL DEFAULT 0,
    "minimumNoticeMinutes" INTEGER NOT NULL DEFAULT 0,
    "horizonDays" INTEGER NOT NULL,
    "timezone" TEXT NOT NULL,
    "businessHours" JSONB NOT NULL,
    "slotGranularityMinutes" INTEGER NOT NULL,
    "maxPerDay" INTEGER,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "appointment_types_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "calendar_connections_accountId_createdAt_idx" ON "calendar_connections"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "appointment_types_accountId_createdAt_idx" ON "appointment_types"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "appointment_types_connectionId_idx" ON "appointment_types"("connectionId");

-- AddForeignKey
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointment_types" ADD CONSTRAINT "appointment_types_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointment_types" ADD CONSTRAINT "appointment_types_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "calendar_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

