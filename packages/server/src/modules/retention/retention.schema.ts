import { builder } from "../../builder.ts";
import { actorOf } from "../../events.ts";
import type { AccountRetention, AssistantRetention } from "./retention.service.ts";

const KIND_FIELDS = {
  transcriptDays: "Call transcripts, the words of call turns and call evaluations.",
  recordingDays: "Call recordings (the audio, wherever it is stored).",
  messageDays: "Conversation messages (widget, API, SMS and test chats).",
  callTurnDays: "Call turn details (each turn's timings and words).",
  webhookLogDays: "Webhook deliveries and their attempts, once delivered or failed.",
  textDays: "Text message (SMS) bodies.",
} as const;

const DataRetention = builder.objectRef<AccountRetention>("DataRetention").implement({
  description:
    "Days the account keeps each kind of customer content; null keeps it forever " +
    "(docs/data-governance.md#retention). Ledger entries and calls' money fields are always kept.",
  fields: (t) => ({
    ...(Object.fromEntries(
      Object.entries(KIND_FIELDS).map(([field, description]) => [
        field,
        t.exposeInt(field as keyof AccountRetention, { nullable: true, description }),
      ]),
    ) as Record<keyof typeof KIND_FIELDS, ReturnType<typeof t.exposeInt>>),
    auditLogDays: t.exposeInt("auditLogDays", {
      nullable: true,
      description: "The audit log's own retention (365 days unless set).",
    }),
  }),
});

const AssistantDataRetention = builder
  .objectRef<AssistantRetention & { accountId: number; assistantId: number }>("AssistantDataRetention")
  .implement({
    description:
      "An assistant's own retention over its account's, kind by kind: null follows the account, 0 keeps " +
      "forever, N days otherwise. Applies to the content made with the assistant.",
    fields: (t) => ({
      assistantId: t.exposeInt("assistantId"),
      ...(Object.fromEntries(
        Object.entries(KIND_FIELDS).map(([field, description]) => [
          field,
          t.exposeInt(field as keyof AssistantRetention, { nullable: true, description }),
        ]),
      ) as Record<keyof typeof KIND_FIELDS, ReturnType<typeof t.exposeInt>>),
      effective: t.field({
        type: DataRetention,
        description: "What applies to the assistant's content: its own days over the account's.",
        resolve: (own, _args, context) =>
          context.services.retention.effective(own.accountId, own.assistantId),
      }),
    }),
  });

const kindInputs = (t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0], bounds: string) =>
  Object.fromEntries(
    Object.entries(KIND_FIELDS).map(([field, description]) => [
      field,
      t.int({ description: `${description} ${bounds}` }),
    ]),
  ) as Record<keyof typeof KIND_FIELDS, ReturnType<typeof t.int>>;

const DataRetentionInput = builder.inputType("DataRetentionInput", {
  description: "Only the fields given change. Each: 1 to 3650 days, or null to keep forever.",
  fields: (t) => ({
    ...kindInputs(t, "1-3650 days; null: forever."),
    auditLogDays: t.int({ description: "1-3650 days; null: forever." }),
  }),
});

const AssistantDataRetentionInput = builder.inputType("AssistantDataRetentionInput", {
  description:
    "Only the fields given change. Each: 1 to 3650 days, 0 to keep forever, null to follow the account.",
  fields: (t) => kindInputs(t, "0-3650 days (0: forever); null: the account's."),
});

builder.queryField("dataRetention", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DataRetention,
    description: "How long the account keeps customer content (docs/data-governance.md#retention).",
    resolve: (_root, _args, context) => context.services.retention.forAccount(context.viewer.accountId),
  }),
);

builder.mutationField("setDataRetention", (t) =>
  t.withAuth({ manager: true }).field({
    type: DataRetention,
    description:
      "Changes how long the account keeps customer content. Content already older than a new limit is " +
      "removed by the next sweep (hourly). Audited as retention.updated.",
    args: { input: t.arg({ type: DataRetentionInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.retention.setForAccount(
        context.viewer.accountId,
        input,
        actorOf(context.viewer, context.clientAddress),
      ),
  }),
);

builder.queryField("assistantDataRetention", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: AssistantDataRetention,
    args: { assistantId: t.arg.int({ required: true }) },
    resolve: async (_root, { assistantId }, context) => {
      const { accountId } = context.viewer;
      return {
        ...(await context.services.retention.forAssistant(accountId, assistantId)),
        accountId,
        assistantId,
      };
    },
  }),
);

builder.mutationField("setAssistantDataRetention", (t) =>
  t.withAuth({ manager: true }).field({
    type: AssistantDataRetention,
    description: "Changes an assistant's own retention over its account's. Audited as retention.updated.",
    args: {
      assistantId: t.arg.int({ required: true }),
      input: t.arg({ type: AssistantDataRetentionInput, required: true }),
    },
    resolve: async (_root, { assistantId, input }, context) => {
      const { accountId } = context.viewer;
      const own = await context.services.retention.setForAssistant(
        accountId,
        assistantId,
        input,
        actorOf(context.viewer, context.clientAddress),
      );
      return { ...own, accountId, assistantId };
    },
  }),
);
