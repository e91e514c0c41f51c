/**
 * PII redaction (docs/data-governance.md#pii-redaction): the engine (`redact`, `findPii`) and the
 * per-assistant service every writer of conversation content goes through.
 */
export { isPiiCategory, PII_CATEGORIES, type PiiCategory, PLACEHOLDERS } from "./categories.ts";
export { findPii, type PiiSpan, type Redaction, redact, redactJson } from "./redact.ts";
export { RedactionService, type RedactionSettings, type Redactor, redactorOf } from "./redaction.service.ts";
