-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "calendar_provider_kind" ADD VALUE 'calcom';
ALTER TYPE "calendar_provider_kind" ADD VALUE 'google';
ALTER TYPE "calendar_provider_kind" ADD VALUE 'microsoft';

-- AlterTable
ALTER TABLE "calendar_connections" ADD COLUMN     "sealedRefreshToken" TEXT,
ADD COLUMN     "tokenExpiresAt" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "calendar_oauth_states" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "provider" "calendar_provider_kind" NOT NULL,
    "name" TEXT NOT NULL,
    "connectionId" INTEGER,
    "stateHash" TEXT NOT NULL,
    "sealedVerifier" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(6) NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calendar_oauth_states_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "calendar_oauth_states_stateHash_key" ON "calendar_oauth_states"("stateHash");

-- CreateIndex
CREATE INDEX "calendar_oauth_states_accountId_createdAt_idx" ON "calendar_oauth_states"("accountId", "createdAt");

-- AddForeignKey
ALTER TABLE "calendar_oauth_states" ADD CONSTRAINT "calendar_oauth_states_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

