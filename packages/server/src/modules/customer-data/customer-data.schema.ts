import { builder } from "../../builder.ts";
import type { CustomerDataJob, ErasureEventLeft } from "../../generated/prisma/client.ts";
import { CalendarProviderKind } from "../calendars/calendars.schema.ts";
import { archivePath } from "./customer-data.service.ts";
import type { EventLeftReason } from "./erasure.ts";

const CustomerDataInput = builder.inputType("CustomerDataInput", {
  description:
    "One customer, named by exactly one of phoneNumber, email or customerId (docs/data-governance.md#erasure-and-export).",
  fields: (t) => ({
    phoneNumber: t.string({
      description:
        "Any usual writing: E.164, with spaces or dashes, a 00 prefix, or national (read in `country`, else the country of the account's first number, else US).",
    }),
    email: t.string({ description: "Compared without case." }),
    customerId: t.string({
      description: "The customer identifier of generate-reply conversations, or a widget conversation's id.",
    }),
    country: t.string({ description: "ISO 3166 two-letter code for a national phone number." }),
  }),
});

const reasons: Record<EventLeftReason, string> = {
  PROVIDER_CANNOT_EDIT:
    "A booking system's event (Cal.com): its API cannot edit the attendee. Erase it in Cal.com.",
  CONNECTION_DELETED: "The calendar connection was deleted: erase the event in that calendar by hand.",
  CONNECTION_REFUSED:
    "The calendar refused the connection (`failure` says how): fix the connection, then run the erasure again.",
  PROVIDER_FAILED:
    "The calendar kept failing (`failure` says how) through the job's attempts: run the erasure again.",
};

const ErasedEventLeftReason = builder.enumType("ErasedEventLeftReason", {
  description: "Why an erasure left a calendar event (docs/data-governance.md#calendar-events).",
  values: Object.fromEntries(
    Object.entries(reasons).map(([value, description]) => [value, { value, description }]),
  ) as Record<EventLeftReason, { value: EventLeftReason; description: string }>,
});

const ErasedEventLeftRef = builder.objectRef<ErasureEventLeft>("ErasedEventLeft").implement({
  description:
    "A calendar event an erasure could not rewrite, still holding the customer's details: what the business needs to erase it by hand. Never the customer.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    appointmentId: t.exposeInt("appointmentId", { description: "The appointment, kept anonymised." }),
    connectionId: t.exposeInt("connectionId", {
      description: "The calendar connection (possibly deleted since).",
    }),
    provider: t.expose("provider", { type: CalendarProviderKind }),
    externalId: t.exposeString("externalId", {
      description: "The provider's id of the event (CalDAV: its URL; Cal.com: the booking's uid).",
    }),
    startsAt: t.expose("startsAt", { type: "DateTime" }),
    reason: t.field({ type: ErasedEventLeftReason, resolve: (left) => left.reason as EventLeftReason }),
    failure: t.exposeString("failure", {
      nullable: true,
      description:
        "The calendar's failure code (e.g. timeout, revoked), for CONNECTION_REFUSED and PROVIDER_FAILED.",
    }),
    retriedByJobId: t.exposeInt("retriedByJobId", {
      nullable: true,
      description:
        "A later erasure of the same customer that tried the event again; it lists the event itself if still left.",
    }),
    handledAt: t.expose("handledAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was marked erased by hand (markErasedEventLeftHandled).",
    }),
    handledBy: t.exposeString("handledBy", { nullable: true, description: "user:<id>." }),
  }),
});

export const CustomerDataJobRef = builder.objectRef<CustomerDataJob>("CustomerDataJob").implement({
  description:
    "An export or erasure of one customer's data: a durable job that survives restarts and runs on one instance at a time.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    kind: t.exposeString("kind", { description: "export or erase." }),
    state: t.exposeString("state", { description: "pending, running, done or failed." }),
    identifierKind: t.exposeString("identifierKind", { description: "phone, email or customer_id." }),
    identifierHash: t.exposeString("identifierHash", {
      description: "SHA-256 of the normalised identifier with the account's salt: the tombstone's key.",
    }),
    requestedBy: t.exposeString("requestedBy", { description: "user:<id> or cli." }),
    stepsDone: t.exposeInt("stepsDone"),
    stepsTotal: t.exposeInt("stepsTotal"),
    progress: t.float({
      description: "stepsDone / stepsTotal, 0 to 1.",
      resolve: (job) => (job.stepsTotal > 0 ? job.stepsDone / job.stepsTotal : 0),
    }),
    counts: t.field({
      type: "JSON",
      description: "Records found (export) or erased (erase), by kind.",
      resolve: (job) => job.counts,
    }),
    error: t.exposeString("error", { nullable: true }),
    archiveBytes: t.exposeInt("archiveBytes", { nullable: true }),
    downloadUrl: t.string({
      nullable: true,
      description:
        "Exports, once done and until expiresAt: the zip archive, fetched with the account's API key or session token as a Bearer token.",
      resolve: (job, _args, context) =>
        context.services.customerData.downloadable(job)
          ? `${context.services.customerData.publicBaseUrl}${archivePath(job.id)}`
          : null,
    }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    finishedAt: t.expose("finishedAt", { type: "DateTime", nullable: true }),
    externalEventsRedacted: t.int({
      nullable: true,
      description:
        "Erasures: the customer's events in the account's calendars (CalDAV, Google, Microsoft 365) rewritten without their details, or found already deleted. Null for exports.",
      resolve: (job) => eventCount(job, "externalEventsRedacted"),
    }),
    externalEventsLeft: t.int({
      nullable: true,
      description:
        "Erasures: events still holding the customer's details, for the business to erase in its calendar: Cal.com bookings (its API cannot edit an attendee), calendars that refused the connection or stayed unreachable, deleted connections. Null for exports.",
      resolve: (job) => eventCount(job, "externalEventsLeft"),
    }),
    externalEventsLeftDetails: t.field({
      type: [ErasedEventLeftRef],
      nullable: true,
      description:
        "Erasures: the events counted in externalEventsLeft, oldest first, with why each was left. Null for exports.",
      resolve: (job, _args, context) =>
        job.kind === "erase" ? context.services.customerData.eventsLeft(job) : null,
    }),
  }),
});

function eventCount(job: CustomerDataJob, key: "externalEventsRedacted" | "externalEventsLeft") {
  if (job.kind !== "erase") return null;
  const value = (job.counts as Record<string, unknown>)[key];
  return typeof value === "number" ? value : 0;
}

builder.queryField("customerDataJob", (t) =>
  t.withAuth({ manager: true }).field({
    type: CustomerDataJobRef,
    description: "An export or erasure job of the account, with its progress.",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.customerData.job(context.viewer.accountId, id),
  }),
);

builder.mutationField("exportCustomerData", (t) =>
  t.withAuth({ manager: true }).field({
    type: CustomerDataJobRef,
    description:
      "Starts an export of everything tied to the customer: a zip of customer.json and the recordings, downloadable for 24 hours.",
    args: { input: t.arg({ type: CustomerDataInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.customerData.requestExport(
        { accountId: context.viewer.accountId, requestedBy: `user:${context.viewer.userId}` },
        input,
      ),
  }),
);

builder.mutationField("eraseCustomerData", (t) =>
  t.withAuth({ manager: true }).field({
    type: CustomerDataJobRef,
    description:
      "Starts the erasure of everything tied to the customer (irreversible): content is deleted or anonymised, money records stay, a tombstone keeps the number from being added or called again.",
    args: { input: t.arg({ type: CustomerDataInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.customerData.requestErasure(
        { accountId: context.viewer.accountId, requestedBy: `user:${context.viewer.userId}` },
        input,
      ),
  }),
);

builder.mutationField("markErasedEventLeftHandled", (t) =>
  t.withAuth({ manager: true }).field({
    type: ErasedEventLeftRef,
    description:
      "Records that the business erased a left calendar event by hand (who and when); later erasures of the customer no longer try it. Marking it again keeps the first record.",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.customerData.markEventLeftHandled(
        context.viewer.accountId,
        id,
        `user:${context.viewer.userId}`,
      ),
  }),
);
