-- The voice engine: the nonce of the single-use token a carrier presents when it connects a call's audio,
-- and the turns of live calls with the timestamps of each stage.
-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "mediaStreamNonce" TEXT;

-- CreateTable
CREATE TABLE "call_turns" (
    "id" SERIAL NOT NULL,
    "callId" INTEGER NOT NULL,
    "accountId" INTEGER NOT NULL,
    "speaker" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "heardText" TEXT NOT NULL,
    "interrupted" BOOLEAN NOT NULL DEFAULT false,
    "startMs" INTEGER NOT NULL,
    "endMs" INTEGER NOT NULL,
    "speechEndedAt" TIMESTAMPTZ(6),
    "transcriptAt" TIMESTAMPTZ(6),
    "firstTokenAt" TIMESTAMPTZ(6),
    "firstAudioAt" TIMESTAMPTZ(6),
    "playedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "call_turns_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "call_turns_callId_id_idx" ON "call_turns"("callId", "id");

-- AddForeignKey
ALTER TABLE "call_turns" ADD CONSTRAINT "call_turns_callId_fkey" FOREIGN KEY ("callId") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
