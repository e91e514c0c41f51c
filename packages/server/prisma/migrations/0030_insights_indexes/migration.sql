-- CreateIndex
CREATE INDEX "call_turns_accountId_createdAt_idx" ON "call_turns"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "conversations_accountId_createdAt_idx" ON "conversations"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "appointments_accountId_createdAt_idx" ON "appointments"("accountId", "createdAt");

