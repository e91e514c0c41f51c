-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "recordingExpiredAt" TIMESTAMPTZ(6),
ADD COLUMN     "transcriptExpiredAt" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "text_messages" ADD COLUMN     "bodyExpiredAt" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "retention_policies" (
    "accountId" INTEGER NOT NULL,
    "transcriptDays" INTEGER,
    "recordingDays" INTEGER,
    "messageDays" INTEGER,
    "callTurnDays" INTEGER,
    "webhookLogDays" INTEGER,
    "textDays" INTEGER,
    "auditLogDays" INTEGER DEFAULT 365,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "retention_policies_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "assistant_retention_policies" (
    "assistantId" INTEGER NOT NULL,
    "accountId" INTEGER NOT NULL,
    "transcriptDays" INTEGER,
    "recordingDays" INTEGER,
    "messageDays" INTEGER,
    "callTurnDays" INTEGER,
    "webhookLogDays" INTEGER,
    "textDays" INTEGER,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "assistant_retention_policies_pkey" PRIMARY KEY ("assistantId")
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "actorKind" TEXT NOT NULL,
    "actorId" INTEGER,
    "userId" INTEGER,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "ip" TEXT,
    "at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "assistant_retention_policies_accountId_idx" ON "assistant_retention_policies"("accountId");

-- CreateIndex
CREATE INDEX "audit_entries_accountId_id_idx" ON "audit_entries"("accountId", "id");

-- CreateIndex
CREATE INDEX "audit_entries_accountId_action_id_idx" ON "audit_entries"("accountId", "action", "id");

-- CreateIndex
CREATE INDEX "audit_entries_at_idx" ON "audit_entries"("at");

-- AddForeignKey
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistant_retention_policies" ADD CONSTRAINT "assistant_retention_policies_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The audit log is append-only: no statement may change an entry (rows leave only by DELETE, which
-- only the audit retention sweep and an account's deletion issue).
CREATE FUNCTION "audit_entries_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are append-only';
END;
$$;

CREATE TRIGGER "audit_entries_append_only" BEFORE UPDATE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "audit_entries_refuse_update"();
