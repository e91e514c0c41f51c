import { builder } from "../../builder.ts";
import { AccountRef } from "../accounts/accounts.schema.ts";
import { pageOf } from "../common/pagination.schema.ts";

const AccountPage = pageOf("AccountPage", AccountRef);

builder.queryField("platformAccounts", (t) =>
  t.withAuth({ manager: true }).field({
    type: AccountPage,
    description:
      "Platform operators only (FORBIDDEN otherwise): every account, oldest first (25 per page by default); search matches the account name or an owner's email.",
    args: { page: t.arg.int(), perPage: t.arg.int(), search: t.arg.string() },
    resolve: (_root, args, context) =>
      context.services.platform.listAccounts(
        context.viewer,
        { search: args.search },
        { page: args.page, perPage: args.perPage },
      ),
  }),
);

const CreatePlatformAccountInput = builder.inputType("CreatePlatformAccountInput", {
  fields: (t) => ({
    email: t.string({ required: true }),
    password: t.string({ required: true, description: "At least 8 characters." }),
    name: t.string({ description: "The owner's and the account's name; the email's local part if absent." }),
    operator: t.boolean({ description: "Make the new account a platform operator (default false)." }),
  }),
});

builder.mutationField("createPlatformAccount", (t) =>
  t.withAuth({ manager: true }).field({
    type: AccountRef,
    description: "Platform operators only: creates an account with its owner, who can sign in at once.",
    args: { input: t.arg({ type: CreatePlatformAccountInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.platform.createAccount(context.viewer, input),
  }),
);

builder.mutationField("creditAccount", (t) =>
  t.withAuth({ manager: true }).field({
    type: AccountRef,
    description:
      "Platform operators only: adds `amount` to an account's balance, with a ledger entry carrying `note`.",
    args: {
      accountId: t.arg.int({ required: true }),
      amount: t.arg({ type: "Decimal", required: true }),
      note: t.arg.string({ description: "Shown in the account's ledger; at most 255 characters." }),
    },
    resolve: (_root, args, context) =>
      context.services.platform.creditAccount(context.viewer, args.accountId, {
        amount: args.amount,
        note: args.note,
      }),
  }),
);

builder.mutationField("suspendAccount", (t) =>
  t.withAuth({ manager: true }).field({
    type: AccountRef,
    description:
      "Platform operators only: suspends an account (its API keys and sessions are refused at once on every instance, its widget and calls refuse) or lifts the suspension.",
    args: {
      accountId: t.arg.int({ required: true }),
      suspended: t.arg.boolean({ required: true }),
    },
    resolve: (_root, args, context) =>
      context.services.platform.suspendAccount(context.viewer, args.accountId, args.suspended),
  }),
);
