-- AlterTable
ALTER TABLE "assistants" ADD COLUMN     "redactPii" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "redactRecordings" BOOLEAN NOT NULL DEFAULT false;

