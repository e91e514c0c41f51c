import { builder } from "../../builder.ts";
import { spelledEnum } from "../common/enums.schema.ts";
import { pageOf } from "../common/pagination.schema.ts";

const LedgerEntryKind = spelledEnum(
  "LedgerEntryKind",
  ["credit", "message_debit", "reply_debit", "call_debit", "adjustment", "sms_debit"] as const,
  {
    description:
      "credit: a top-up, the opening balance or a refund of a charge whose work failed; message_debit, reply_debit: a message or generated reply; call_debit: one minute of a call; adjustment: a correction (or the refund of a text the carrier did not send); sms_debit: a text message's segments.",
  },
);

const LedgerEntryRef = builder.prismaObject("LedgerEntry", {
  description:
    "One movement of an account's balance. Written only by billing, never changed afterwards except `pending`.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    kind: t.field({ type: LedgerEntryKind, resolve: (entry) => entry.kind }),
    amount: t.field({
      type: "Decimal",
      description: "Signed: credits positive, charges negative, with 4 decimals.",
      resolve: (entry) => entry.amount.toFixed(4),
    }),
    balanceAfter: t.field({
      type: "Decimal",
      description: "The balance just after this entry.",
      resolve: (entry) => entry.balanceAfter.toFixed(4),
    }),
    description: t.exposeString("description"),
    pending: t.boolean({
      description:
        "A charge held for work not yet finished: it is kept once the work is stored, or refunded (a separate credit) if it fails.",
      resolve: (entry) => entry.heldUntil !== null,
    }),
    callId: t.exposeInt("callId", { nullable: true, description: "The call whose minute this charged." }),
    callMinute: t.exposeInt("callMinute", { nullable: true }),
    textMessageId: t.exposeInt("textMessageId", {
      nullable: true,
      description: "The text message this charged (or refunded).",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const LedgerEntryPage = pageOf("LedgerEntryPage", LedgerEntryRef);

builder.queryField("ledgerEntries", (t) =>
  t.withAuth({ manager: true }).field({
    type: LedgerEntryPage,
    description:
      "The ledger of the caller's account, newest first (25 per page by default, at most 100). A platform operator may name any account (`accountId`); anyone else naming another account gets FORBIDDEN.",
    args: { accountId: t.arg.int(), page: t.arg.int(), perPage: t.arg.int() },
    resolve: (_root, args, context) =>
      context.services.billing.ledger(context.viewer, args.accountId, {
        page: args.page,
        perPage: args.perPage,
      }),
  }),
);
