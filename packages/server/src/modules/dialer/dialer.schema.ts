import { builder } from "../../builder.ts";
import { CampaignRef, CampaignStatusRef } from "../campaigns/campaigns.schema.ts";
import type { CampaignProgress } from "./dialer.service.ts";

const LeadCounts = builder.objectRef<CampaignProgress["leads"]>("CampaignLeadCounts").implement({
  description: "The campaign's leads by status.",
  fields: (t) => ({
    created: t.exposeInt("created"),
    scheduled: t.exposeInt("scheduled", { description: "Picked by the dialer; the call is being placed." }),
    processing: t.exposeInt("processing", { description: "On a call now." }),
    completed: t.exposeInt("completed"),
    rescheduled: t.exposeInt("rescheduled", { description: "Waiting for their next attempt." }),
    reachedMaxRetries: t.exposeInt("reached_max_retries"),
    blacklisted: t.exposeInt("blacklisted"),
    total: t.exposeInt("total"),
  }),
});

const CampaignProgressRef = builder.objectRef<CampaignProgress>("CampaignProgress").implement({
  description: "Where a campaign stands: its leads by status and its calls running now.",
  fields: (t) => ({
    campaignId: t.exposeInt("campaignId"),
    status: t.expose("status", { type: CampaignStatusRef }),
    leads: t.field({ type: LeadCounts, resolve: (progress) => progress.leads }),
    callsRunning: t.exposeInt("callsRunning", { description: "The campaign's calls not yet ended." }),
    withinCallingWindow: t.exposeBoolean("withinCallingWindow", {
      description: "Whether the campaign's local time is inside its calling window now.",
    }),
  }),
});

builder.objectField(CampaignRef, "progress", (t) =>
  t.field({
    type: CampaignProgressRef,
    resolve: (campaign, _args, context) => context.services.dialer.progress(campaign),
  }),
);

/** The current value first, then the stream of changes. */
async function* startingWith<T>(first: T, rest: AsyncIterable<T>) {
  yield first;
  yield* rest;
}

builder.subscriptionField("campaignProgress", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CampaignProgressRef,
    description:
      "The campaign's progress now, then again each time a lead moves or the campaign's status changes (on any instance).",
    args: { campaignId: t.arg.int({ required: true }) },
    subscribe: async (_root, { campaignId }, context) => {
      await context.services.campaigns.requireOwned(context.viewer.accountId, campaignId);
      return startingWith({ campaignId }, context.pubsub.subscribe("campaign:progress", campaignId));
    },
    resolve: async (event, _args, context) =>
      context.services.dialer.progress(
        await context.services.campaigns.requireOwned(context.viewer.accountId, event.campaignId),
      ),
  }),
);
