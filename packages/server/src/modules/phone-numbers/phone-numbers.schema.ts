import { builder } from "../../builder.ts";
import { actorOf } from "../../events.ts";
import { spelledEnum } from "../common/enums.schema.ts";
import type { ReleaseOutcome } from "./number-release.ts";
import {
  PHONE_NUMBER_KINDS,
  PHONE_NUMBER_STATUSES,
  SUBSCRIPTION_STATUSES,
  TYPE_LABELS,
} from "./phone-numbers.service.ts";

const PhoneNumberKindRef = builder.enumType("PhoneNumberKind", {
  description:
    "normal is a dedicated number bought through Voxgate; sip routes to a SIP URI; caller_id is a verified outbound caller ID.",
  values: PHONE_NUMBER_KINDS,
});

const PhoneNumberStatusRef = builder.enumType("PhoneNumberStatus", {
  description:
    "pending_verification: a caller ID that cannot place calls until verified; active; releasing: being given back to the carrier (still held: nobody can add it until that completes); released.",
  values: PHONE_NUMBER_STATUSES,
});

const SubscriptionStatusRef = spelledEnum("SubscriptionStatus", SUBSCRIPTION_STATUSES, {
  description:
    "active, cancelled (release scheduled) or none (SIP and caller ID, which have no subscription).",
});

export const PhoneNumberRef = builder.prismaObject("PhoneNumber", {
  description: "A number the account holds. Released numbers are not listed; calls keep their own copy.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    phoneNumber: t.exposeString("phoneNumber", { description: "E.164, e.g. +14155550123." }),
    countryCode: t.exposeString("countryCode", {
      description: "ISO 3166 two-letter code (ZZ: non-geographic).",
    }),
    kind: t.field({ type: PhoneNumberKindRef, resolve: (number) => number.kind }),
    typeLabel: t.string({ resolve: (number) => TYPE_LABELS[number.kind] }),
    label: t.exposeString("label"),
    region: t.exposeString("region"),
    smsCapable: t.exposeBoolean("smsCapable"),
    hasActiveSubscription: t.boolean({
      description:
        "False for a cancelled dedicated number (still working until its period ends) and for SIP and caller IDs, which have no subscription.",
      resolve: (number) => number.subscriptionStatus === "active",
    }),
    subscriptionStatus: t.expose("subscriptionStatus", { type: SubscriptionStatusRef }),
    billingPeriodStart: t.expose("billingPeriodStart", { type: "DateTime", nullable: true }),
    billingPeriodEnd: t.expose("billingPeriodEnd", { type: "DateTime", nullable: true }),
    releaseRequestedAt: t.expose("releaseRequestedAt", { type: "DateTime", nullable: true }),
    releasedAt: t.expose("releasedAt", { type: "DateTime", nullable: true }),
    sipUri: t.exposeString("sipUri", { nullable: true }),
    status: t.field({ type: PhoneNumberStatusRef, resolve: (number) => number.status }),
    verifiedAt: t.expose("verifiedAt", {
      type: "DateTime",
      nullable: true,
      description: "Caller IDs: when the owner proved they hold the phone.",
    }),
    validationCode: t.exposeString("validationCode", {
      nullable: true,
      description:
        "Caller IDs pending verification on Twilio: the code to type on Twilio's verification call. Null elsewhere (the simulated carrier's call speaks a code, given to verifyCallerId).",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryField("phoneNumbers", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [PhoneNumberRef],
    description:
      "The account's numbers, oldest first. smsReadyOnly keeps SMS-capable numbers with an active subscription.",
    args: { smsReadyOnly: t.arg.boolean({ defaultValue: false }) },
    resolve: (_root, args, context) =>
      context.services.phoneNumbers.list(context.viewer.accountId, {
        smsReadyOnly: args.smsReadyOnly ?? false,
      }),
  }),
);

builder.queryField("phoneNumber", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: PhoneNumberRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.phoneNumbers.get(context.viewer.accountId, id),
  }),
);

const AddPhoneNumberInput = builder.inputType("AddPhoneNumberInput", {
  fields: (t) => ({
    kind: t.field({ type: PhoneNumberKindRef, required: true }),
    phoneNumber: t.string({ required: true, description: "E.164." }),
    label: t.string(),
    region: t.string({ description: "Defaults to the country's name." }),
    smsCapable: t.boolean({ description: "Dedicated numbers only; defaults to true for them." }),
    sipUri: t.string({ description: "Required for SIP numbers: where calls are routed." }),
  }),
});

builder.mutationField("addPhoneNumber", (t) =>
  t.withAuth({ manager: true }).field({
    type: PhoneNumberRef,
    description:
      "Buys a dedicated number, starts verifying a caller ID (status pending_verification), or records a SIP number. A number another account holds, or the carrier does not offer, answers PHONE_NUMBER_UNAVAILABLE.",
    args: { input: t.arg({ type: AddPhoneNumberInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.phoneNumbers.add(
        context.viewer.accountId,
        input,
        new Date(),
        actorOf(context.viewer, context.clientAddress),
      ),
  }),
);

builder.mutationField("verifyCallerId", (t) =>
  t.withAuth({ manager: true }).field({
    type: PhoneNumberRef,
    description:
      "Confirms a caller ID pending verification: with the 6-digit code its verification call spoke (simulated carrier; 10 minutes, 5 tries), or, on Twilio, without a code once the code shown was typed on Twilio's call.",
    args: { id: t.arg.int({ required: true }), code: t.arg.string() },
    resolve: (_root, { id, code }, context) =>
      context.services.phoneNumbers.verifyCallerId(context.viewer.accountId, id, code),
  }),
);

builder.mutationField("restartCallerIdVerification", (t) =>
  t.withAuth({ manager: true }).field({
    type: PhoneNumberRef,
    description:
      "Places a new verification call for a caller ID pending verification (at most once a minute).",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.phoneNumbers.restartCallerIdVerification(context.viewer.accountId, id),
  }),
);

const ReleasePhoneNumberPayload = builder.objectRef<ReleaseOutcome>("ReleasePhoneNumberPayload").implement({
  fields: (t) => ({
    phoneNumber: t.field({ type: PhoneNumberRef, resolve: (outcome) => outcome.phoneNumber }),
    releasedNow: t.exposeBoolean("releasedNow", {
      description: "True for SIP and caller ID; false for a dedicated number, released when its period ends.",
    }),
    releasesAt: t.expose("releasesAt", { type: "DateTime", nullable: true }),
  }),
});

builder.mutationField("releasePhoneNumber", (t) =>
  t.withAuth({ manager: true }).field({
    type: ReleasePhoneNumberPayload,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.phoneNumbers.release(
        context.viewer.accountId,
        id,
        new Date(),
        actorOf(context.viewer, context.clientAddress),
      ),
  }),
);
