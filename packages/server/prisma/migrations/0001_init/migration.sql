-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "vector";

-- CreateEnum
CREATE TYPE "ledger_kind" AS ENUM ('credit', 'message_debit', 'reply_debit', 'adjustment');

-- CreateEnum
CREATE TYPE "knowledgebase_status" AS ENUM ('empty', 'processing', 'active', 'failed');

-- CreateEnum
CREATE TYPE "document_type" AS ENUM ('website', 'pdf', 'txt', 'docx');

-- CreateEnum
CREATE TYPE "document_status" AS ENUM ('processing', 'active', 'failed');

-- CreateEnum
CREATE TYPE "phone_number_kind" AS ENUM ('normal', 'sip', 'caller_id');

-- CreateEnum
CREATE TYPE "subscription_status" AS ENUM ('active', 'cancelled', 'none');

-- CreateEnum
CREATE TYPE "assistant_mode" AS ENUM ('pipeline', 'multimodal', 'dualplex');

-- CreateEnum
CREATE TYPE "call_type" AS ENUM ('inbound', 'outbound', 'web');

-- CreateEnum
CREATE TYPE "call_status" AS ENUM ('initiated', 'ringing', 'busy', 'in-progress', 'ended', 'completed', 'ended_by_customer', 'ended_by_assistant', 'no-answer', 'failed');

-- CreateEnum
CREATE TYPE "lead_status" AS ENUM ('created', 'scheduled', 'processing', 'completed', 'rescheduled', 'reached-max-retries', 'blacklisted');

-- CreateEnum
CREATE TYPE "conversation_channel" AS ENUM ('api', 'widget', 'test');

-- CreateEnum
CREATE TYPE "message_role" AS ENUM ('user', 'assistant', 'system', 'operator');

-- CreateTable
CREATE TABLE "accounts" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "balance" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "lookupId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "lastUsedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_tokens" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "lookupId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(6) NOT NULL,
    "revokedAt" TIMESTAMPTZ(6),
    "lastUsedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "kind" "ledger_kind" NOT NULL,
    "amount" DECIMAL(14,4) NOT NULL,
    "balanceAfter" DECIMAL(14,4) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "messageId" INTEGER,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "knowledgebases" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "description" VARCHAR(255) NOT NULL DEFAULT '',
    "status" "knowledgebase_status" NOT NULL DEFAULT 'empty',
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "knowledgebases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "knowledgebaseId" INTEGER NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "description" VARCHAR(255) NOT NULL DEFAULT '',
    "type" "document_type" NOT NULL,
    "status" "document_status" NOT NULL DEFAULT 'processing',
    "url" TEXT,
    "links" JSONB,
    "relativeLinksLimit" INTEGER,
    "storagePath" TEXT,
    "fileName" TEXT,
    "mediaType" TEXT,
    "sizeBytes" INTEGER,
    "stage" TEXT,
    "pagesDone" INTEGER NOT NULL DEFAULT 0,
    "pagesTotal" INTEGER,
    "chunkCount" INTEGER NOT NULL DEFAULT 0,
    "failureReason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMPTZ(6),
    "finishedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_chunks" (
    "id" SERIAL NOT NULL,
    "documentId" INTEGER NOT NULL,
    "knowledgebaseId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "tokenCount" INTEGER NOT NULL,
    "source" TEXT,
    "embedder" TEXT,
    "embedding" vector,
    "searchVector" tsvector,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_chunks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_uploads" (
    "documentId" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_uploads_pkey" PRIMARY KEY ("documentId","part")
);

-- CreateTable
CREATE TABLE "background_jobs" (
    "id" SERIAL NOT NULL,
    "task" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "jobKey" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "runAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedAt" TIMESTAMPTZ(6),
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "background_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "phone_numbers" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "phoneNumber" TEXT NOT NULL,
    "countryCode" CHAR(2) NOT NULL,
    "kind" "phone_number_kind" NOT NULL DEFAULT 'normal',
    "label" TEXT NOT NULL DEFAULT '',
    "region" TEXT NOT NULL DEFAULT '',
    "smsCapable" BOOLEAN NOT NULL DEFAULT false,
    "subscriptionStatus" "subscription_status" NOT NULL DEFAULT 'active',
    "billingPeriodStart" TIMESTAMPTZ(6),
    "billingPeriodEnd" TIMESTAMPTZ(6),
    "releasedAt" TIMESTAMPTZ(6),
    "releaseRequestedAt" TIMESTAMPTZ(6),
    "providerName" TEXT NOT NULL DEFAULT 'embedded',
    "providerRef" TEXT,
    "sipUri" TEXT,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "phone_numbers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_operations" (
    "id" SERIAL NOT NULL,
    "provider" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "phoneNumber" TEXT,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_operations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "languages" (
    "id" SERIAL NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "languages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "voices" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER,
    "name" TEXT NOT NULL,
    "languageId" INTEGER,
    "gender" TEXT NOT NULL,
    "provider" TEXT NOT NULL DEFAULT 'voxgate',
    "providerVoiceId" TEXT,
    "supportedModes" "assistant_mode"[],
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "voices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assistants" (
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL,
    "accountId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'inbound',
    "status" TEXT NOT NULL DEFAULT 'active',
    "mode" "assistant_mode" NOT NULL DEFAULT 'pipeline',
    "phoneNumberId" INTEGER,
    "engineId" INTEGER,
    "synthesizerId" INTEGER,
    "transcriberId" INTEGER,
    "voiceId" INTEGER,
    "instanceId" INTEGER,
    "flowsPlatformId" INTEGER,
    "languageId" INTEGER,
    "transcriberProviderId" INTEGER,
    "synthesizerProviderId" INTEGER,
    "llmModelId" INTEGER,
    "multimodalModelId" INTEGER,
    "knowledgebaseId" INTEGER,
    "knowledgebaseMode" TEXT NOT NULL DEFAULT 'hybrid',
    "language" TEXT,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "postCallEvaluation" BOOLEAN NOT NULL DEFAULT false,
    "postCallSchema" JSONB NOT NULL DEFAULT '[]',
    "fillers" INTEGER NOT NULL DEFAULT 0,
    "fillerConfig" JSONB NOT NULL DEFAULT '{"neutral":[],"negative":[],"positive":[],"question":[]}',
    "tools" JSONB NOT NULL DEFAULT '[]',
    "isWebhookActive" BOOLEAN NOT NULL DEFAULT false,
    "webhookUrl" TEXT,
    "inboundWebhookUrl" TEXT,
    "sendWebhookOnlyOnCompleted" BOOLEAN NOT NULL DEFAULT false,
    "includeRecordingInWebhook" BOOLEAN NOT NULL DEFAULT false,
    "maxDuration" INTEGER NOT NULL DEFAULT 600,
    "maxSilenceDuration" INTEGER NOT NULL DEFAULT 30,
    "reengagementInterval" INTEGER NOT NULL DEFAULT 10,
    "record" BOOLEAN NOT NULL DEFAULT false,
    "initialMessage" TEXT NOT NULL DEFAULT '',
    "systemPrompt" TEXT NOT NULL DEFAULT '',
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "endCallOnVoicemail" BOOLEAN NOT NULL DEFAULT false,
    "llmTemperature" DECIMAL(3,2) NOT NULL DEFAULT 0.7,
    "voiceStability" DECIMAL(3,2) NOT NULL DEFAULT 0.5,
    "voiceSimilarity" DECIMAL(3,2) NOT NULL DEFAULT 0.75,
    "speechSpeed" DECIMAL(3,2) NOT NULL DEFAULT 1,
    "ambientSoundVolume" DECIMAL(3,2) NOT NULL DEFAULT 0.5,
    "allowInterruptions" BOOLEAN NOT NULL DEFAULT true,
    "enableNoiseCancellation" BOOLEAN NOT NULL DEFAULT false,
    "waitForCustomer" BOOLEAN NOT NULL DEFAULT false,
    "endpointSensitivity" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "interruptSensitivity" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "endpointType" TEXT NOT NULL DEFAULT 'vad',
    "ambientSound" TEXT NOT NULL DEFAULT 'none',
    "minInterruptWords" INTEGER NOT NULL DEFAULT 1,
    "widgetSettings" JSONB NOT NULL DEFAULT '{"theme":"light","color":"#4f46e5","position":"bottom-right"}',
    "allowedOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,
    "deletedAt" TIMESTAMPTZ(6),

    CONSTRAINT "assistants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "calls" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER,
    "campaignId" INTEGER,
    "leadId" INTEGER,
    "phoneNumberId" INTEGER,
    "type" "call_type" NOT NULL,
    "status" "call_status" NOT NULL DEFAULT 'initiated',
    "assistantName" TEXT NOT NULL DEFAULT '',
    "campaignName" TEXT NOT NULL DEFAULT '',
    "assistantPhoneNumber" TEXT NOT NULL DEFAULT '',
    "clientPhoneNumber" TEXT NOT NULL DEFAULT '',
    "duration" INTEGER NOT NULL DEFAULT 0,
    "transcript" TEXT NOT NULL DEFAULT '',
    "variables" JSONB NOT NULL DEFAULT '{}',
    "evaluation" JSONB NOT NULL DEFAULT '{}',
    "webhookResponse" JSONB NOT NULL DEFAULT '{}',
    "carrierCost" DECIMAL(12,4) NOT NULL DEFAULT 0,
    "totalCost" DECIMAL(12,4) NOT NULL DEFAULT 0,
    "answeredBy" TEXT NOT NULL DEFAULT '',
    "recordingUrl" TEXT NOT NULL DEFAULT '',
    "startedAt" TIMESTAMPTZ(6),
    "endedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaigns" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "callingWindowStart" TEXT NOT NULL DEFAULT '09:00',
    "callingWindowEnd" TEXT NOT NULL DEFAULT '17:00',
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "maxRetries" INTEGER NOT NULL DEFAULT 2,
    "retryIntervalMinutes" INTEGER NOT NULL DEFAULT 60,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,
    "deletedAt" TIMESTAMPTZ(6),

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_phone_numbers" (
    "campaignId" INTEGER NOT NULL,
    "phoneNumberId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_phone_numbers_pkey" PRIMARY KEY ("campaignId","phoneNumberId")
);

-- CreateTable
CREATE TABLE "leads" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "campaignId" INTEGER NOT NULL,
    "phoneNumber" TEXT NOT NULL,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "status" "lead_status" NOT NULL DEFAULT 'created',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "secondary_contacts" (
    "id" SERIAL NOT NULL,
    "leadId" INTEGER NOT NULL,
    "phoneNumber" TEXT NOT NULL,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "status" "lead_status" NOT NULL DEFAULT 'created',
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "secondary_contacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversations" (
    "id" UUID NOT NULL,
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER NOT NULL,
    "channel" "conversation_channel" NOT NULL,
    "customerIdentifier" VARCHAR(255),
    "variables" JSONB NOT NULL DEFAULT '{}',
    "aiDisabled" BOOLEAN NOT NULL DEFAULT false,
    "origin" TEXT,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "conversations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" SERIAL NOT NULL,
    "conversationId" UUID NOT NULL,
    "role" "message_role" NOT NULL,
    "content" TEXT NOT NULL,
    "functionCalls" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_accountId_idx" ON "users"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_lookupId_key" ON "api_keys"("lookupId");

-- CreateIndex
CREATE INDEX "api_keys_accountId_createdAt_idx" ON "api_keys"("accountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "session_tokens_lookupId_key" ON "session_tokens"("lookupId");

-- CreateIndex
CREATE INDEX "session_tokens_userId_idx" ON "session_tokens"("userId");

-- CreateIndex
CREATE INDEX "session_tokens_expiresAt_idx" ON "session_tokens"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_messageId_key" ON "ledger_entries"("messageId");

-- CreateIndex
CREATE INDEX "ledger_entries_accountId_createdAt_idx" ON "ledger_entries"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "knowledgebases_accountId_createdAt_idx" ON "knowledgebases"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "documents_knowledgebaseId_createdAt_idx" ON "documents"("knowledgebaseId", "createdAt");

-- CreateIndex
CREATE INDEX "documents_status_idx" ON "documents"("status");

-- CreateIndex
CREATE INDEX "document_chunks_knowledgebaseId_idx" ON "document_chunks"("knowledgebaseId");

-- CreateIndex
CREATE UNIQUE INDEX "document_chunks_documentId_ordinal_key" ON "document_chunks"("documentId", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "background_jobs_jobKey_key" ON "background_jobs"("jobKey");

-- CreateIndex
CREATE INDEX "background_jobs_runAt_idx" ON "background_jobs"("runAt");

-- CreateIndex
CREATE INDEX "phone_numbers_accountId_releasedAt_idx" ON "phone_numbers"("accountId", "releasedAt");

-- CreateIndex
CREATE INDEX "phone_numbers_phoneNumber_idx" ON "phone_numbers"("phoneNumber");

-- CreateIndex
CREATE INDEX "phone_numbers_subscriptionStatus_billingPeriodEnd_idx" ON "phone_numbers"("subscriptionStatus", "billingPeriodEnd");

-- CreateIndex
CREATE INDEX "provider_operations_provider_createdAt_idx" ON "provider_operations"("provider", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "languages_code_key" ON "languages"("code");

-- CreateIndex
CREATE INDEX "voices_accountId_idx" ON "voices"("accountId");

-- CreateIndex
CREATE INDEX "voices_languageId_idx" ON "voices"("languageId");

-- CreateIndex
CREATE UNIQUE INDEX "assistants_uuid_key" ON "assistants"("uuid");

-- CreateIndex
CREATE INDEX "assistants_accountId_deletedAt_id_idx" ON "assistants"("accountId", "deletedAt", "id");

-- CreateIndex
CREATE INDEX "assistants_phoneNumberId_idx" ON "assistants"("phoneNumberId");

-- CreateIndex
CREATE INDEX "assistants_knowledgebaseId_idx" ON "assistants"("knowledgebaseId");

-- CreateIndex
CREATE INDEX "calls_accountId_createdAt_idx" ON "calls"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "calls_accountId_status_createdAt_idx" ON "calls"("accountId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "calls_accountId_type_createdAt_idx" ON "calls"("accountId", "type", "createdAt");

-- CreateIndex
CREATE INDEX "calls_accountId_clientPhoneNumber_idx" ON "calls"("accountId", "clientPhoneNumber");

-- CreateIndex
CREATE INDEX "calls_assistantId_createdAt_idx" ON "calls"("assistantId", "createdAt");

-- CreateIndex
CREATE INDEX "calls_campaignId_createdAt_idx" ON "calls"("campaignId", "createdAt");

-- CreateIndex
CREATE INDEX "campaigns_accountId_deletedAt_idx" ON "campaigns"("accountId", "deletedAt");

-- CreateIndex
CREATE INDEX "campaign_phone_numbers_phoneNumberId_idx" ON "campaign_phone_numbers"("phoneNumberId");

-- CreateIndex
CREATE INDEX "leads_accountId_createdAt_idx" ON "leads"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "leads_accountId_status_idx" ON "leads"("accountId", "status");

-- CreateIndex
CREATE INDEX "leads_campaignId_phoneNumber_idx" ON "leads"("campaignId", "phoneNumber");

-- CreateIndex
CREATE INDEX "secondary_contacts_leadId_idx" ON "secondary_contacts"("leadId");

-- CreateIndex
CREATE INDEX "conversations_accountId_updatedAt_idx" ON "conversations"("accountId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "conversations_assistantId_customerIdentifier_key" ON "conversations"("assistantId", "customerIdentifier");

-- CreateIndex
CREATE INDEX "messages_conversationId_id_idx" ON "messages"("conversationId", "id");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_tokens" ADD CONSTRAINT "session_tokens_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledgebases" ADD CONSTRAINT "knowledgebases_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_knowledgebaseId_fkey" FOREIGN KEY ("knowledgebaseId") REFERENCES "knowledgebases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_knowledgebaseId_fkey" FOREIGN KEY ("knowledgebaseId") REFERENCES "knowledgebases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_uploads" ADD CONSTRAINT "document_uploads_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voices" ADD CONSTRAINT "voices_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voices" ADD CONSTRAINT "voices_languageId_fkey" FOREIGN KEY ("languageId") REFERENCES "languages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistants" ADD CONSTRAINT "assistants_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistants" ADD CONSTRAINT "assistants_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistants" ADD CONSTRAINT "assistants_phoneNumberId_fkey" FOREIGN KEY ("phoneNumberId") REFERENCES "phone_numbers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistants" ADD CONSTRAINT "assistants_voiceId_fkey" FOREIGN KEY ("voiceId") REFERENCES "voices"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistants" ADD CONSTRAINT "assistants_languageId_fkey" FOREIGN KEY ("languageId") REFERENCES "languages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assistants" ADD CONSTRAINT "assistants_knowledgebaseId_fkey" FOREIGN KEY ("knowledgebaseId") REFERENCES "knowledgebases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calls" ADD CONSTRAINT "calls_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calls" ADD CONSTRAINT "calls_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calls" ADD CONSTRAINT "calls_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calls" ADD CONSTRAINT "calls_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "leads"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calls" ADD CONSTRAINT "calls_phoneNumberId_fkey" FOREIGN KEY ("phoneNumberId") REFERENCES "phone_numbers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_phone_numbers" ADD CONSTRAINT "campaign_phone_numbers_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_phone_numbers" ADD CONSTRAINT "campaign_phone_numbers_phoneNumberId_fkey" FOREIGN KEY ("phoneNumberId") REFERENCES "phone_numbers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leads" ADD CONSTRAINT "leads_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leads" ADD CONSTRAINT "leads_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "secondary_contacts" ADD CONSTRAINT "secondary_contacts_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "leads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "assistants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

