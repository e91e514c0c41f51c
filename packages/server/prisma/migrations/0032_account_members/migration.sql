-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('owner', 'admin', 'agent');

-- AlterTable: every user from before roles was their account's owner; new members default to agent.
ALTER TABLE "users" ADD COLUMN     "role" "MemberRole" NOT NULL DEFAULT 'owner';
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'agent';

-- CreateTable
CREATE TABLE "invitations" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "userId" INTEGER,
    "tokenHash" TEXT NOT NULL,
    "createdById" INTEGER,
    "expiresAt" TIMESTAMPTZ(6) NOT NULL,
    "acceptedAt" TIMESTAMPTZ(6),
    "revokedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "invitations_tokenHash_key" ON "invitations"("tokenHash");

-- CreateIndex
CREATE INDEX "invitations_accountId_idx" ON "invitations"("accountId");

-- CreateIndex
CREATE INDEX "invitations_userId_idx" ON "invitations"("userId");

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

