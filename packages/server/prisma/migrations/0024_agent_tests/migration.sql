-- CreateTable
CREATE TABLE "test_scenarios" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "channel" TEXT NOT NULL DEFAULT 'chat',
    "customer" JSONB NOT NULL,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "turnLimit" INTEGER NOT NULL DEFAULT 10,
    "criteria" JSONB NOT NULL DEFAULT '[]',
    "checks" JSONB NOT NULL DEFAULT '[]',
    "toolResults" JSONB NOT NULL DEFAULT '{}',
    "useRealTools" BOOLEAN NOT NULL DEFAULT false,
    "expectedReplies" JSONB NOT NULL DEFAULT '[]',
    "sourceCallId" INTEGER,
    "sourceConversationId" UUID,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "test_scenarios_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_suites" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "test_suites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_suite_scenarios" (
    "suiteId" INTEGER NOT NULL,
    "scenarioId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "test_suite_scenarios_pkey" PRIMARY KEY ("suiteId","scenarioId")
);

-- CreateTable
CREATE TABLE "test_runs" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "suiteId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "concurrency" INTEGER NOT NULL,
    "overrides" JSONB NOT NULL DEFAULT '{}',
    "total" INTEGER NOT NULL,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "errored" INTEGER NOT NULL DEFAULT 0,
    "cost" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "error" TEXT NOT NULL DEFAULT '',
    "deadlineAt" TIMESTAMPTZ(6) NOT NULL,
    "startedAt" TIMESTAMPTZ(6),
    "finishedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_scenario_results" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "scenarioId" INTEGER NOT NULL,
    "scenarioName" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "transcript" JSONB NOT NULL DEFAULT '[]',
    "functionCalls" JSONB NOT NULL DEFAULT '[]',
    "checks" JSONB NOT NULL DEFAULT '[]',
    "judge" JSONB NOT NULL DEFAULT '[]',
    "evaluation" JSONB,
    "divergences" JSONB NOT NULL DEFAULT '[]',
    "endedBy" TEXT NOT NULL DEFAULT '',
    "turnLatencies" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "cost" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "error" TEXT NOT NULL DEFAULT '',
    "startedAt" TIMESTAMPTZ(6),
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "test_scenario_results_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "test_scenarios_accountId_id_idx" ON "test_scenarios"("accountId", "id");

-- CreateIndex
CREATE INDEX "test_suites_accountId_id_idx" ON "test_suites"("accountId", "id");

-- CreateIndex
CREATE INDEX "test_suite_scenarios_scenarioId_idx" ON "test_suite_scenarios"("scenarioId");

-- CreateIndex
CREATE INDEX "test_runs_suiteId_id_idx" ON "test_runs"("suiteId", "id");

-- CreateIndex
CREATE INDEX "test_runs_accountId_id_idx" ON "test_runs"("accountId", "id");

-- CreateIndex
CREATE INDEX "test_scenario_results_runId_position_idx" ON "test_scenario_results"("runId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "test_scenario_results_runId_scenarioId_key" ON "test_scenario_results"("runId", "scenarioId");

-- AddForeignKey
ALTER TABLE "test_scenarios" ADD CONSTRAINT "test_scenarios_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_suites" ADD CONSTRAINT "test_suites_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_suite_scenarios" ADD CONSTRAINT "test_suite_scenarios_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "test_suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_suite_scenarios" ADD CONSTRAINT "test_suite_scenarios_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "test_scenarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_runs" ADD CONSTRAINT "test_runs_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "test_suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_scenario_results" ADD CONSTRAINT "test_scenario_results_runId_fkey" FOREIGN KEY ("runId") REFERENCES "test_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

