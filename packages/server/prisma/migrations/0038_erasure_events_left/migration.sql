-- CreateTable
CREATE TABLE "erasure_events_left" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "jobId" INTEGER NOT NULL,
    "appointmentId" INTEGER NOT NULL,
    "connectionId" INTEGER NOT NULL,
    "provider" "calendar_provider_kind" NOT NULL,
    "externalId" TEXT NOT NULL,
    "startsAt" TIMESTAMPTZ(6) NOT NULL,
    "reason" TEXT NOT NULL,
    "failure" TEXT,
    "retriedByJobId" INTEGER,
    "handledAt" TIMESTAMPTZ(6),
    "handledBy" TEXT,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "erasure_events_left_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "erasure_events_left_accountId_id_idx" ON "erasure_events_left"("accountId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "erasure_events_left_jobId_appointmentId_key" ON "erasure_events_left"("jobId", "appointmentId");

-- AddForeignKey
ALTER TABLE "erasure_events_left" ADD CONSTRAINT "erasure_events_left_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "customer_data_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

