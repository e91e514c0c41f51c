import { builder } from "../../builder.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { CallRef } from "../calls/calls.schema.ts";
import { spelledEnum } from "../common/enums.schema.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { LEAD_STATUSES, type leadDetails, leadStatusName } from "./leads.service.ts";

type LeadWithDetails = Prisma.LeadGetPayload<{ include: typeof leadDetails }>;
type SecondaryContactRow = LeadWithDetails["secondaryContacts"][number];

const LeadCampaign = builder.objectRef<LeadWithDetails["campaign"]>("LeadCampaign").implement({
  fields: (t) => ({ id: t.exposeInt("id"), name: t.exposeString("name") }),
});

const LeadStatusRef = spelledEnum("LeadStatus", LEAD_STATUSES, {
  description: "Where a lead is in its campaign. REST spells reached_max_retries with hyphens.",
});

const SecondaryContact = builder.objectRef<SecondaryContactRow>("SecondaryContact").implement({
  description: "Another number of the same person, tried along with the lead.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    phoneNumber: t.exposeString("phoneNumber"),
    variables: t.field({ type: "JSON", resolve: (contact) => contact.variables }),
    status: t.field({ type: LeadStatusRef, resolve: (contact) => leadStatusName(contact.status) }),
    attempts: t.exposeInt("attempts", { description: "Calls placed to this number." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

export const LeadRef = builder.objectRef<LeadWithDetails>("Lead").implement({
  description: "A person a campaign calls.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    campaignId: t.exposeInt("campaignId"),
    phoneNumber: t.exposeString("phoneNumber", { description: "E.164." }),
    variables: t.field({ type: "JSON", resolve: (lead) => lead.variables }),
    status: t.field({ type: LeadStatusRef, resolve: (lead) => leadStatusName(lead.status) }),
    blacklistReason: t.exposeString("blacklistReason", {
      nullable: true,
      description:
        "Why a blacklisted lead is: owner (set by the account), texts_opt_out (its number replied STOP to one of the account's texts; docs/sms.md) or erased (its number belongs to a customer the account erased; docs/data-governance.md).",
    }),
    campaign: t.field({ type: LeadCampaign, resolve: (lead) => lead.campaign }),
    secondaryContacts: t.field({ type: [SecondaryContact], resolve: (lead) => lead.secondaryContacts }),
    attempts: t.exposeInt("attempts", {
      description: "Calls placed to the lead and its secondary contacts together.",
    }),
    currentContact: t.exposeInt("contactIndex", {
      description:
        "The number the dialer is at: 0 the lead's own, k the k-th secondary contact (in the order given).",
    }),
    nextAttemptAt: t.expose("nextAttemptAt", {
      type: "DateTime",
      nullable: true,
      description:
        "A rescheduled lead is not dialled before this instant (and only inside the calling window).",
    }),
    calls: t.field({
      type: [CallRef],
      description: "The calls placed to the lead and its secondary contacts, oldest first.",
      resolve: (lead, _args, context) => context.services.leads.callHistory(lead.accountId, lead.id),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const LeadPage = pageOf("LeadPage", LeadRef);

builder.queryField("leads", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: LeadPage,
    description: "The account's leads, newest first, 15 per page by default.",
    args: {
      page: t.arg.int(),
      perPage: t.arg.int(),
      campaignId: t.arg.int(),
      status: t.arg({ type: LeadStatusRef }),
    },
    resolve: (_root, args, context) =>
      context.services.leads.list(
        context.viewer.accountId,
        { page: args.page, perPage: args.perPage },
        { campaignId: args.campaignId, status: args.status },
      ),
  }),
);

builder.queryField("lead", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: LeadRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.leads.get(context.viewer.accountId, id),
  }),
);

const SecondaryContactInput = builder.inputType("SecondaryContactInput", {
  fields: (t) => ({
    phoneNumber: t.string({ required: true, description: "E.164." }),
    variables: t.field({ type: "JSON" }),
  }),
});

const CreateLeadInput = builder.inputType("CreateLeadInput", {
  fields: (t) => ({
    phoneNumber: t.string({ required: true, description: "E.164, e.g. +14155550123." }),
    campaignId: t.int({ required: true }),
    variables: t.field({ type: "JSON", description: "Object of strings, numbers or booleans." }),
    allowDuplicate: t.boolean({
      description: "Allow a number already in the campaign (REST: allow_dupplicate). Default false.",
    }),
    secondaryContacts: t.field({ type: [SecondaryContactInput] }),
  }),
});

builder.mutationField("createLead", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: LeadRef,
    args: { input: t.arg({ type: CreateLeadInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.leads.create(context.viewer.accountId, input),
  }),
);

builder.mutationField("setLeadBlacklisted", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: LeadRef,
    description:
      "Puts a lead on the do-not-call list (blacklisted: never dialled; a call running now finishes), or takes it off: it is then tried again with the attempts it has left.",
    args: { id: t.arg.int({ required: true }), blacklisted: t.arg.boolean({ required: true }) },
    resolve: (_root, { id, blacklisted }, context) =>
      context.services.leads.setBlacklisted(context.viewer.accountId, id, blacklisted),
  }),
);

const DeleteLeadPayload = builder.objectRef<{ deletedId: number }>("DeleteLeadPayload").implement({
  fields: (t) => ({ deletedId: t.exposeInt("deletedId") }),
});

builder.mutationField("deleteLead", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DeleteLeadPayload,
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.leads.delete(context.viewer.accountId, id);
      return { deletedId: id };
    },
  }),
);
