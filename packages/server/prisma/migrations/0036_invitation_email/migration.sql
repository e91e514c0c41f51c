-- CreateEnum
CREATE TYPE "InvitationEmailStatus" AS ENUM ('not_configured', 'sending', 'sent', 'failed');

-- AlterTable
ALTER TABLE "invitations" ADD COLUMN     "emailError" TEXT,
ADD COLUMN     "emailQueuedAt" TIMESTAMPTZ(6),
ADD COLUMN     "emailSentAt" TIMESTAMPTZ(6),
ADD COLUMN     "emailStatus" "InvitationEmailStatus" NOT NULL DEFAULT 'not_configured';

