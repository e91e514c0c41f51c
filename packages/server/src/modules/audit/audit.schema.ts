import { builder } from "../../builder.ts";
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from "./audit.service.ts";

const AuditEntryRef = builder.prismaObject("AuditEntry", {
  description:
    "One action in the account: who did it, from where, to what (docs/data-governance.md#audit-log).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    action: t.exposeString("action", { description: "E.g. api_key.created, retention.updated." }),
    actorKind: t.exposeString("actorKind", { description: "user (a session), apiKey or system." }),
    actorId: t.exposeInt("actorId", {
      nullable: true,
      description: "The session's user or the API key; null for system.",
    }),
    userId: t.exposeInt("userId", { nullable: true, description: "The user behind the credential." }),
    targetType: t.exposeString("targetType"),
    targetId: t.exposeString("targetId"),
    details: t.expose("details", { type: "JSON", description: "What changed; never secrets." }),
    ip: t.exposeString("ip", { nullable: true }),
    at: t.expose("at", { type: "DateTime" }),
  }),
});

const AuditLogPage = builder
  .objectRef<{ entries: { id: number }[]; nextCursor: string | null }>("AuditLogPage")
  .implement({
    fields: (t) => ({
      entries: t.field({ type: [AuditEntryRef], resolve: (page) => page.entries as never }),
      nextCursor: t.exposeString("nextCursor", {
        nullable: true,
        description: "Pass as `after` for the next (older) page; null on the last one.",
      }),
    }),
  });

const AuditLogFilter = builder.inputType("AuditLogFilter", {
  fields: (t) => ({
    action: t.string({ description: "Exactly this action, e.g. account.signed_in." }),
    actorKind: t.string({ description: "user, apiKey or system." }),
    actorId: t.int(),
    from: t.field({ type: "DateTime", description: "Entries at or after this instant." }),
    to: t.field({ type: "DateTime", description: "Entries before this instant." }),
  }),
});

builder.queryField("auditLog", (t) =>
  t.withAuth({ manager: true }).field({
    type: AuditLogPage,
    description:
      `The account's audit log, newest first, ${AUDIT_PAGE_DEFAULT} entries per page by default ` +
      `(first: at most ${AUDIT_PAGE_MAX}); continue with after: nextCursor.`,
    args: {
      filter: t.arg({ type: AuditLogFilter }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, context) =>
      context.services.auditLog.list(context.viewer.accountId, {
        ...args.filter,
        first: args.first,
        after: args.after,
      }),
  }),
);
