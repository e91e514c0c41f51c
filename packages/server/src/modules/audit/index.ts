/**
 * The audit log (docs/data-governance.md#audit-log): who did what in an account, recorded from the
 * domain events that carry an actor (`events.ts`), append-only, read by the account's owner.
 */
export { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, AuditLog } from "./audit.service.ts";
