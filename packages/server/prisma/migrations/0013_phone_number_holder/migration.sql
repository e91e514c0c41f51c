-- A phone number is held by one account at most, whatever its kind (issue #28). Where a deployed database
-- already has a number held more than once, the oldest holder (earliest createdAt, then lowest id) keeps it
-- and every other row is released here, in the database only: the carrier's number or caller ID is the one
-- the oldest holder uses. Each such release is logged in provider_operations
-- (operation 'duplicate_released_by_migration'), and, as any release does, unassigns the number from
-- assistants and drops it from campaign rotations.

-- CreateEnum
CREATE TYPE "phone_number_status" AS ENUM ('pending_verification', 'active', 'releasing', 'released');

-- AlterTable
ALTER TABLE "phone_numbers" ADD COLUMN     "status" "phone_number_status" NOT NULL DEFAULT 'active',
ADD COLUMN     "validationCode" TEXT,
ADD COLUMN     "verificationAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "verificationCodeHash" TEXT,
ADD COLUMN     "verificationExpiresAt" TIMESTAMPTZ(6),
ADD COLUMN     "verifiedAt" TIMESTAMPTZ(6);

UPDATE "phone_numbers" SET "status" = 'released' WHERE "releasedAt" IS NOT NULL;
-- No caller ID was verified before: each must be verified (docs/assistants-and-telephony.md) before it
-- places calls again.
UPDATE "phone_numbers" SET "status" = 'pending_verification'
  WHERE "kind" = 'caller_id' AND "releasedAt" IS NULL;

CREATE TEMPORARY TABLE "duplicate_holders" ON COMMIT DROP AS
  SELECT "id", "accountId", "phoneNumber", "kind" FROM (
    SELECT "id", "accountId", "phoneNumber", "kind",
      row_number() OVER (PARTITION BY "phoneNumber" ORDER BY "createdAt", "id") AS "rank"
    FROM "phone_numbers" WHERE "releasedAt" IS NULL
  ) AS "held" WHERE "rank" > 1;

INSERT INTO "provider_operations" ("provider", "operation", "phoneNumber", "payload")
  SELECT 'voxgate', 'duplicate_released_by_migration', "phoneNumber",
    jsonb_build_object('phoneNumberId', "id", 'accountId', "accountId", 'kind', "kind")
  FROM "duplicate_holders";

UPDATE "assistants" SET "phoneNumberId" = NULL
  WHERE "phoneNumberId" IN (SELECT "id" FROM "duplicate_holders");
DELETE FROM "campaign_phone_numbers" WHERE "phoneNumberId" IN (SELECT "id" FROM "duplicate_holders");
UPDATE "phone_numbers" SET "status" = 'released', "releasedAt" = now(),
    "releaseRequestedAt" = coalesce("releaseRequestedAt", now()), "updatedAt" = now()
  WHERE "id" IN (SELECT "id" FROM "duplicate_holders");

CREATE UNIQUE INDEX "phone_numbers_held_number_key" ON "phone_numbers" ("phoneNumber") WHERE "releasedAt" IS NULL;
