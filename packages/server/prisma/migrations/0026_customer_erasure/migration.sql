-- CreateTable
CREATE TABLE "customer_data_jobs" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "identifierKind" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "identifierHash" TEXT NOT NULL,
    "requestedBy" TEXT NOT NULL,
    "stepsDone" INTEGER NOT NULL DEFAULT 0,
    "stepsTotal" INTEGER NOT NULL DEFAULT 0,
    "counts" JSONB NOT NULL DEFAULT '{}',
    "claimToken" TEXT,
    "leaseUntil" TIMESTAMPTZ(6),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "archiveBytes" INTEGER,
    "expiresAt" TIMESTAMPTZ(6),
    "finishedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "customer_data_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_data_archive_parts" (
    "jobId" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_data_archive_parts_pkey" PRIMARY KEY ("jobId","part")
);

-- CreateTable
CREATE TABLE "customer_tombstones" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "identifierKind" TEXT NOT NULL,
    "identifierHash" TEXT NOT NULL,
    "erasedBy" TEXT NOT NULL,
    "jobId" INTEGER,
    "textsOptedOut" BOOLEAN NOT NULL DEFAULT false,
    "erasedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_tombstones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_data_salts" (
    "accountId" INTEGER NOT NULL,
    "salt" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_data_salts_pkey" PRIMARY KEY ("accountId")
);

-- CreateIndex
CREATE INDEX "customer_data_jobs_state_leaseUntil_idx" ON "customer_data_jobs"("state", "leaseUntil");

-- CreateIndex
CREATE INDEX "customer_data_jobs_accountId_id_idx" ON "customer_data_jobs"("accountId", "id");

-- CreateIndex
CREATE INDEX "customer_data_jobs_accountId_identifierHash_idx" ON "customer_data_jobs"("accountId", "identifierHash");

-- CreateIndex
CREATE UNIQUE INDEX "customer_tombstones_accountId_identifierKind_identifierHash_key" ON "customer_tombstones"("accountId", "identifierKind", "identifierHash");

-- AddForeignKey
ALTER TABLE "customer_data_archive_parts" ADD CONSTRAINT "customer_data_archive_parts_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "customer_data_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

