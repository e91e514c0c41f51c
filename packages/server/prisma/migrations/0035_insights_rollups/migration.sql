-- CreateTable
CREATE TABLE "insights_rollups" (
    "accountId" INTEGER NOT NULL,
    "assistantId" INTEGER NOT NULL,
    "bucket" TIMESTAMPTZ(6) NOT NULL,
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

    CONSTRAINT "insights_rollups_pkey" PRIMARY KEY ("accountId","bucket","assistantId")
);

-- CreateTable
CREATE TABLE "insights_dirty_buckets" (
    "id" BIGSERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "bucket" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "insights_dirty_buckets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "insights_dirty_buckets_accountId_bucket_idx" ON "insights_dirty_buckets"("accountId", "bucket");


-- Insights rollup (docs/console.md#insights): every change of what the overview counts marks the
-- 15-minute bucket of its account dirty, in the writer's own transaction, whatever the code path
-- (services, raw SQL, retention, erasure, cascades). Dirty buckets are read from the raw rows until
-- the rollup job recomputes them. Updates mark only when a counted column changes.
CREATE FUNCTION "insights_mark_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
    VALUES (OLD."accountId", date_bin('15 minutes', OLD."createdAt", TIMESTAMPTZ '2000-01-01 00:00:00+00'));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
    VALUES (NEW."accountId", date_bin('15 minutes', NEW."createdAt", TIMESTAMPTZ '2000-01-01 00:00:00+00'));
  END IF;
  RETURN NULL;
END $$;

-- A turn counts in its call's bucket.
CREATE FUNCTION "insights_mark_turn"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
    SELECT "accountId", date_bin('15 minutes', "createdAt", TIMESTAMPTZ '2000-01-01 00:00:00+00')
    FROM "calls" WHERE "id" = OLD."callId";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
    SELECT "accountId", date_bin('15 minutes', "createdAt", TIMESTAMPTZ '2000-01-01 00:00:00+00')
    FROM "calls" WHERE "id" = NEW."callId";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "calls_insights_write" AFTER INSERT OR DELETE ON "calls"
  FOR EACH ROW EXECUTE FUNCTION "insights_mark_row"();
CREATE TRIGGER "calls_insights_update" AFTER UPDATE ON "calls" FOR EACH ROW
  WHEN ((OLD."accountId", OLD."assistantId", OLD."createdAt", OLD."test", OLD."status", OLD."startedAt",
         OLD."duration", OLD."totalCost", OLD."evaluationStatus", OLD."evaluation", OLD."transferState", OLD."endReason")
    IS DISTINCT FROM (NEW."accountId", NEW."assistantId", NEW."createdAt", NEW."test", NEW."status", NEW."startedAt",
         NEW."duration", NEW."totalCost", NEW."evaluationStatus", NEW."evaluation", NEW."transferState", NEW."endReason"))
  EXECUTE FUNCTION "insights_mark_row"();

CREATE TRIGGER "call_turns_insights_insert" AFTER INSERT ON "call_turns" FOR EACH ROW
  WHEN (NEW."speechEndedAt" IS NOT NULL AND NEW."firstAudioAt" IS NOT NULL)
  EXECUTE FUNCTION "insights_mark_turn"();
CREATE TRIGGER "call_turns_insights_delete" AFTER DELETE ON "call_turns" FOR EACH ROW
  WHEN (OLD."speechEndedAt" IS NOT NULL AND OLD."firstAudioAt" IS NOT NULL)
  EXECUTE FUNCTION "insights_mark_turn"();
CREATE TRIGGER "call_turns_insights_update" AFTER UPDATE ON "call_turns" FOR EACH ROW
  WHEN ((OLD."callId", OLD."speechEndedAt", OLD."firstAudioAt") IS DISTINCT FROM (NEW."callId", NEW."speechEndedAt", NEW."firstAudioAt"))
  EXECUTE FUNCTION "insights_mark_turn"();

CREATE TRIGGER "conversations_insights_write" AFTER INSERT OR DELETE ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION "insights_mark_row"();
CREATE TRIGGER "conversations_insights_update" AFTER UPDATE ON "conversations" FOR EACH ROW
  WHEN ((OLD."accountId", OLD."assistantId", OLD."channel", OLD."createdAt")
    IS DISTINCT FROM (NEW."accountId", NEW."assistantId", NEW."channel", NEW."createdAt"))
  EXECUTE FUNCTION "insights_mark_row"();

CREATE TRIGGER "appointments_insights_write" AFTER INSERT OR DELETE ON "appointments"
  FOR EACH ROW EXECUTE FUNCTION "insights_mark_row"();
CREATE TRIGGER "appointments_insights_update" AFTER UPDATE ON "appointments" FOR EACH ROW
  WHEN ((OLD."accountId", OLD."assistantId", OLD."status", OLD."createdAt")
    IS DISTINCT FROM (NEW."accountId", NEW."assistantId", NEW."status", NEW."createdAt"))
  EXECUTE FUNCTION "insights_mark_row"();

-- What exists already has no rollup: all of it starts dirty.
INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
SELECT DISTINCT "accountId", date_bin('15 minutes', "createdAt", TIMESTAMPTZ '2000-01-01 00:00:00+00')
FROM (
  SELECT "accountId", "createdAt" FROM "calls"
  UNION ALL SELECT "accountId", "createdAt" FROM "conversations"
  UNION ALL SELECT "accountId", "createdAt" FROM "appointments"
) AS "history";
