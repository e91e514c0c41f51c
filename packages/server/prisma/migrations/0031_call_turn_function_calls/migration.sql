-- AlterTable
ALTER TABLE "call_turns" ADD COLUMN     "functionCalls" JSONB NOT NULL DEFAULT '[]';

