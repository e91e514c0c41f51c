-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "activeAssistantId" INTEGER,
ADD COLUMN     "handoffTrail" INTEGER[] DEFAULT ARRAY[]::INTEGER[];

