-- CreateTable
CREATE TABLE "call_listens" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "callId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "credentialKind" TEXT NOT NULL,
    "credentialId" INTEGER NOT NULL,
    "clientAddress" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMPTZ(6),
    "endReason" TEXT NOT NULL DEFAULT '',
    "framesSent" INTEGER NOT NULL DEFAULT 0,
    "framesDropped" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "call_listens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "call_listens_callId_startedAt_idx" ON "call_listens"("callId", "startedAt");

-- CreateIndex
CREATE INDEX "call_listens_accountId_startedAt_idx" ON "call_listens"("accountId", "startedAt");

-- AddForeignKey
ALTER TABLE "call_listens" ADD CONSTRAINT "call_listens_callId_fkey" FOREIGN KEY ("callId") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

