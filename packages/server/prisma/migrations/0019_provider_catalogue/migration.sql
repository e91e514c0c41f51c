-- CreateEnum
CREATE TYPE "speech_provider_kind" AS ENUM ('transcriber', 'synthesizer');

-- CreateEnum
CREATE TYPE "ai_model_kind" AS ENUM ('llm', 'multimodal');

-- CreateTable
CREATE TABLE "speech_providers" (
    "id" INTEGER NOT NULL,
    "kind" "speech_provider_kind" NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "streaming" BOOLEAN NOT NULL,

    CONSTRAINT "speech_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ai_models" (
    "id" SERIAL NOT NULL,
    "kind" "ai_model_kind" NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT NOT NULL,

    CONSTRAINT "ai_models_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_provider_keys" (
    "accountId" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "sealedKey" TEXT NOT NULL,
    "lastFour" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "account_provider_keys_pkey" PRIMARY KEY ("accountId","provider")
);

-- CreateIndex
CREATE UNIQUE INDEX "speech_providers_kind_name_key" ON "speech_providers"("kind", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ai_models_kind_name_key" ON "ai_models"("kind", "name");

-- AddForeignKey
ALTER TABLE "account_provider_keys" ADD CONSTRAINT "account_provider_keys_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The catalogue's fixed ids (assistants store them): append new rows, never renumber.
INSERT INTO "speech_providers" ("id", "kind", "name", "label", "streaming") VALUES
  (1, 'transcriber', 'openai', 'OpenAI-compatible transcription (one request per turn)', false),
  (2, 'transcriber', 'deepgram', 'Deepgram live streaming', true),
  (3, 'transcriber', 'openai-realtime', 'OpenAI realtime transcription', true),
  (4, 'synthesizer', 'openai', 'OpenAI-compatible speech (one request per sentence)', false),
  (5, 'synthesizer', 'elevenlabs', 'ElevenLabs input streaming', true),
  (6, 'synthesizer', 'cartesia', 'Cartesia WebSocket', true);

INSERT INTO "ai_models" ("id", "kind", "name", "label") VALUES
  (1, 'llm', 'gpt-4o-mini', 'GPT-4o mini'),
  (2, 'llm', 'gpt-4o', 'GPT-4o'),
  (3, 'llm', 'gpt-4.1-mini', 'GPT-4.1 mini'),
  (4, 'llm', 'gpt-4.1', 'GPT-4.1'),
  (5, 'llm', 'gpt-4.1-nano', 'GPT-4.1 nano'),
  (6, 'multimodal', 'gpt-realtime', 'GPT Realtime'),
  (7, 'multimodal', 'gpt-4o-realtime-preview', 'GPT-4o Realtime (preview)'),
  (8, 'multimodal', 'gpt-4o-mini-realtime-preview', 'GPT-4o mini Realtime (preview)');

-- Models a deployment configures beyond these get ids from 1000 up: seeded ids below stay free.
SELECT setval(pg_get_serial_sequence('"ai_models"', 'id'), 1000, false);
