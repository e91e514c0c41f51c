-- Reserved money is held until its work is stored or refunded; an expired hold is refunded by the sweep.
ALTER TABLE "ledger_entries" ADD COLUMN "heldUntil" TIMESTAMPTZ(6);

CREATE INDEX "ledger_entries_heldUntil_idx" ON "ledger_entries"("heldUntil");
