/**
 * Retention (docs/data-governance.md#retention): how long an account, and each of its assistants,
 * keeps customer content, and the sweep that removes what expired.
 */

export {
  type AccountRetention,
  type AssistantRetention,
  DEFAULT_AUDIT_LOG_DAYS,
  MAX_RETENTION_DAYS,
  RetentionService,
} from "./retention.service.ts";
export { RETENTION_BATCH, RetentionSweep, type SweepCounts } from "./retention-sweep.ts";
