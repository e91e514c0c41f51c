import { builder } from "../../builder.ts";
import { MemberRoleEnum } from "../auth/auth.schema.ts";

export const AccountRef = builder.prismaObject("Account", {
  description: "A customer account: everything (keys, assistants, numbers, calls...) belongs to one.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    balance: t.field({
      type: "Decimal",
      description: "Prepaid balance in account currency (dollars), with 4 decimals.",
      resolve: (account) => account.balance.toFixed(4),
    }),
    timezone: t.exposeString("timezone", { description: "IANA time zone name." }),
    isOperator: t.exposeBoolean("isOperator", {
      description: "A platform operator: may list, create, credit and suspend every account.",
    }),
    suspended: t.boolean({
      description: "Suspended by a platform operator: its keys, sessions, widget and calls are refused.",
      resolve: (account) => account.suspendedAt !== null,
    }),
    ownerEmail: t.string({
      nullable: true,
      description: "Email of the account's first owner.",
      resolve: (account, _args, context) => context.services.accounts.ownerEmail(account.id),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.prismaObject("User", {
  name: "Viewer",
  description: "The user behind the credential of the request.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    email: t.exposeString("email"),
    name: t.exposeString("name"),
    role: t.field({
      type: MemberRoleEnum,
      description: "What the caller may do in the account (an API key acts with its creator's role).",
      resolve: (user) => user.role,
    }),
    account: t.relation("account"),
  }),
});

builder.queryField("viewer", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: "User",
    description: "Who is calling, with their account and balance.",
    resolve: (query, _root, _args, context) => context.services.auth.viewerUser(context.viewer, query),
  }),
);

builder.subscriptionField("balanceChanged", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: "Account",
    description: "Emits the caller's account each time its balance is credited or debited.",
    subscribe: (_root, _args, context) =>
      context.pubsub.subscribe("account:balance", context.viewer.accountId),
    resolve: (query, event: { accountId: number }, _args, context) =>
      context.prisma.account.findUniqueOrThrow({ ...query, where: { id: event.accountId } }),
  }),
);
