-- AlterTable
ALTER TABLE "knowledgebases" ADD COLUMN     "chunkMaxTokens" INTEGER NOT NULL DEFAULT 300,
ADD COLUMN     "chunkOverlapTokens" INTEGER NOT NULL DEFAULT 50;

