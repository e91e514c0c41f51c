import { builder } from "../../builder.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { MAX_CAMPAIGN_CONCURRENT_CALLS } from "../../limits.ts";
import { spelledEnum } from "../common/enums.schema.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { PhoneNumberRef } from "../phone-numbers/phone-numbers.schema.ts";
import { CAMPAIGN_STATUSES, type withRotation } from "./campaigns.service.ts";

export const CampaignStatusRef = spelledEnum("CampaignStatus", CAMPAIGN_STATUSES, {
  description: "Only an active campaign places calls.",
});

type CampaignWithRotation = Prisma.CampaignGetPayload<{ include: typeof withRotation }>;

const CallingWindow = builder.objectRef<CampaignWithRotation>("CallingWindow").implement({
  description: "Local times, in the campaign's time zone, between which calls may be placed.",
  fields: (t) => ({
    start: t.string({ description: "HH:MM", resolve: (campaign) => campaign.callingWindowStart }),
    end: t.string({ description: "HH:MM", resolve: (campaign) => campaign.callingWindowEnd }),
    timezone: t.string({ resolve: (campaign) => campaign.timezone }),
  }),
});

const RetrySettings = builder.objectRef<CampaignWithRotation>("RetrySettings").implement({
  fields: (t) => ({
    maxRetries: t.int({ description: "0 to 10.", resolve: (campaign) => campaign.maxRetries }),
    intervalMinutes: t.int({
      description: "5 to 10080.",
      resolve: (campaign) => campaign.retryIntervalMinutes,
    }),
  }),
});

export const CampaignRef = builder.objectRef<CampaignWithRotation>("Campaign").implement({
  description:
    "An outbound calling campaign: who calls (assistant), from which numbers, when, and how often.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    status: t.expose("status", { type: CampaignStatusRef }),
    assistantId: t.exposeInt("assistantId", { nullable: true }),
    assistant: t.prismaField({
      type: "Assistant",
      nullable: true,
      resolve: (query, campaign, _args, context) =>
        campaign.assistantId
          ? context.prisma.assistant.findFirst({
              ...query,
              where: { id: campaign.assistantId, deletedAt: null },
            })
          : null,
    }),
    phoneNumbers: t.field({
      type: [PhoneNumberRef],
      description: "The number rotation, in calling order. Released numbers drop out.",
      resolve: (campaign) => campaign.phoneNumbers.map((entry) => entry.phoneNumber),
    }),
    callingWindow: t.field({ type: CallingWindow, resolve: (campaign) => campaign }),
    retry: t.field({ type: RetrySettings, resolve: (campaign) => campaign }),
    maxConcurrentCalls: t.exposeInt("maxConcurrentCalls", {
      description: `How many of the campaign's calls may run at once (1 to ${MAX_CAMPAIGN_CONCURRENT_CALLS}).`,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const CampaignPage = pageOf("CampaignPage", CampaignRef);

builder.queryField("campaigns", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CampaignPage,
    description: "The account's campaigns, newest first, 15 per page by default.",
    args: { page: t.arg.int(), perPage: t.arg.int(), status: t.arg({ type: CampaignStatusRef }) },
    resolve: (_root, args, context) =>
      context.services.campaigns.list(
        context.viewer.accountId,
        { page: args.page, perPage: args.perPage },
        { status: args.status },
      ),
  }),
);

builder.queryField("campaign", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CampaignRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.campaigns.get(context.viewer.accountId, id),
  }),
);

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The settings both inputs share; only whether `name` is required differs. */
function campaignSettings(t: PothosSchemaTypes.InputFieldBuilder<Types, "InputObject">) {
  return {
    status: t.field({ type: CampaignStatusRef, description: "Default draft." }),
    assistantId: t.int({ description: "An assistant of the account." }),
    phoneNumberIds: t.intList({
      description: "The rotation in calling order; replaces the whole rotation on update.",
    }),
    callingWindowStart: t.string({ description: "HH:MM (default 09:00)." }),
    callingWindowEnd: t.string({ description: "HH:MM, after the start (default 17:00)." }),
    timezone: t.string({ description: "IANA zone of the calling window (default UTC)." }),
    maxRetries: t.int({ description: "0 to 10 (default 2)." }),
    retryIntervalMinutes: t.int({ description: "5 to 10080 (default 60)." }),
    maxConcurrentCalls: t.int({
      description: `1 to ${MAX_CAMPAIGN_CONCURRENT_CALLS} (default 1): calls of the campaign running at once.`,
    }),
  };
}

const CreateCampaignInput = builder.inputType("CreateCampaignInput", {
  fields: (t) => ({ name: t.string({ required: true }), ...campaignSettings(t) }),
});

const UpdateCampaignInput = builder.inputType("UpdateCampaignInput", {
  description: "Only the fields given change.",
  fields: (t) => ({ name: t.string(), ...campaignSettings(t) }),
});

builder.mutationField("createCampaign", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CampaignRef,
    args: { input: t.arg({ type: CreateCampaignInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.campaigns.create(context.viewer.accountId, input),
  }),
);

builder.mutationField("updateCampaign", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CampaignRef,
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateCampaignInput, required: true }) },
    resolve: (_root, { id, input }, context) =>
      context.services.campaigns.update(context.viewer.accountId, id, input),
  }),
);

const DeleteCampaignPayload = builder.objectRef<{ deletedId: number }>("DeleteCampaignPayload").implement({
  fields: (t) => ({ deletedId: t.exposeInt("deletedId") }),
});

builder.mutationField("deleteCampaign", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DeleteCampaignPayload,
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.campaigns.delete(context.viewer.accountId, id);
      return { deletedId: id };
    },
  }),
);
