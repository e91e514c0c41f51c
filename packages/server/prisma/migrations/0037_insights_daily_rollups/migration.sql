-- CreateTable
CREATE TABLE "insights_daily_rollups" (
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER NOT NULL,
    "day" TIMESTAMPTZ(6) NOT NULL,
    "calls" INTEGER NOT NULL,
    "finished" INTEGER NOT NULL,
    "answered" INTEGER NOT NULL,
    "seconds" BIGINT NOT NULL,
    "cost" DECIMAL(16,4) NOT NULL,
    "evaluated" INTEGER NOT NULL,
    "judged" INTEGER NOT NULL,
    "successful" INTEGER NOT NULL,
    "transfers" INTEGER NOT NULL,
    "conversations" INTEGER NOT NULL,
    "bookings" INTEGER NOT NULL,
    "turns" INTEGER NOT NULL,
    "latencyMs" DECIMAL(20,3) NOT NULL,
    "latencyHistogram" INTEGER[],
    "endings" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "insights_daily_rollups_pkey" PRIMARY KEY ("accountId","day","assistantId")
);


-- Insights' daily level (docs/console.md#insights): each UTC day's sum of its 15-minute rows, per
-- account and assistant. Only the rollup job writes it: it rebuilds a day in the transaction that
-- replaces any of that day's 15-minute rows (insights-rollup.ts). A day with a dirty 15-minute bucket
-- is read at the 15-minute level. So days rolled up before this migration get one dirty mark each
-- (their first bucket): until the job has recomputed it and built the day they read as before.
INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
SELECT DISTINCT "accountId", date_bin('24 hours', "bucket", TIMESTAMPTZ '2000-01-01 00:00:00+00')
FROM "insights_rollups";
