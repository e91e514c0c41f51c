import { builder } from "../../builder.ts";
import { WEEKDAY_KEYS } from "./availability.ts";

export const CalendarProviderKind = builder.enumType("CalendarProviderKind", {
  description: "Where a connection's calendars live (docs/calendars.md).",
  values: {
    caldav: { value: "caldav", description: "A CalDAV server (RFC 4791) with a username and password." },
    calcom: { value: "calcom", description: "A Cal.com event type, with an API key (Cal.com API v2)." },
    google: {
      value: "google",
      description: "Google Calendar, connected by signing in (startCalendarOAuth).",
    },
    microsoft: {
      value: "microsoft",
      description:
        "Microsoft 365 (Outlook) through Microsoft Graph, connected by signing in (startCalendarOAuth).",
    },
  },
});

const CalendarOAuthProvider = builder.enumType("CalendarOAuthProvider", {
  description: "Providers connected by signing in.",
  values: { google: { value: "google" }, microsoft: { value: "microsoft" } },
});

const CalendarConnectionStatus = builder.enumType("CalendarConnectionStatus", {
  values: {
    active: { value: "active", description: "The provider accepted the credentials when last used." },
    broken: {
      value: "broken",
      description: "The provider refused them (or the calendar is gone) when last used: see lastError.",
    },
  },
});

const CalendarConnection = builder.prismaObject("CalendarConnection", {
  description:
    "A calendar of the account at a provider. Its credentials are stored encrypted and never returned.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    provider: t.expose("provider", { type: CalendarProviderKind }),
    url: t.exposeString("url", {
      description:
        "The calendar events are written to; it is read for busy time too. CalDAV: its URL; Google and " +
        'Microsoft: its id ("primary" = the default calendar); Cal.com: the event type id.',
    }),
    readUrls: t.exposeStringList("readUrls", {
      description:
        "Further calendars whose events count as busy time: CalDAV URLs, Google calendar ids, or " +
        "Microsoft mailbox addresses whose schedule is read.",
    }),
    username: t.exposeString("username", {
      description: "CalDAV: the login; Cal.com, Google, Microsoft: the provider account (email or username).",
    }),
    eventTypeId: t.int({
      nullable: true,
      description: "Cal.com: the event type booked; null for other providers.",
      resolve: (connection) => (connection.provider === "calcom" ? Number(connection.url) : null),
    }),
    status: t.expose("status", { type: CalendarConnectionStatus }),
    lastError: t.exposeString("lastError", {
      nullable: true,
      description: "What the provider refused when the connection broke; null while active.",
    }),
    checkedAt: t.expose("checkedAt", {
      type: "DateTime",
      description: "When the provider last answered or refused.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryField("calendarConnections", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [CalendarConnection],
    description: "The account's calendar connections, newest first.",
    resolve: (_root, _args, context) => context.services.calendars.listConnections(context.viewer.accountId),
  }),
);

const CreateCalendarConnectionInput = builder.inputType("CreateCalendarConnectionInput", {
  description:
    "CalDAV: url, username, password (readUrls optional). Cal.com: apiKey and eventTypeId. Google and " +
    "Microsoft are connected with startCalendarOAuth instead.",
  fields: (t) => ({
    name: t.string({ required: true }),
    provider: t.field({ type: CalendarProviderKind, required: true }),
    url: t.string({ description: "CalDAV: the calendar collection's URL." }),
    readUrls: t.stringList({ description: "CalDAV: further calendars to read for busy time (at most 10)." }),
    username: t.string({ description: "CalDAV: the login." }),
    password: t.string({
      description: "CalDAV: checked with the server before saving, then stored encrypted; never returned.",
    }),
    apiKey: t.string({
      description:
        "Cal.com: an API key (cal_live_…); checked before saving, stored encrypted, never returned.",
    }),
    eventTypeId: t.int({ description: "Cal.com: the id of the event type to book." }),
  }),
});

builder.mutationField("createCalendarConnection", (t) =>
  t.withAuth({ manager: true }).field({
    type: CalendarConnection,
    description:
      "Saves a calendar connection once the provider accepts its credentials. Refusals fail with " +
      "CALENDAR_CONNECTION_FAILED naming what was refused (extensions.reason, url, status).",
    args: { input: t.arg({ type: CreateCalendarConnectionInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.calendars.createConnection(context.viewer.accountId, withoutNulls(input)),
  }),
);

const CalendarOAuthStart = builder.objectRef<{ authorizationUrl: string }>("CalendarOAuthStart").implement({
  fields: (t) => ({
    authorizationUrl: t.exposeString("authorizationUrl", {
      description:
        "Open it in the browser: after signing in, the provider returns to PUBLIC_BASE_URL/oauth/calendar/callback, " +
        "which creates the connection and goes on to the console (#/calendars/<id>). Valid for 10 minutes, once.",
    }),
  }),
});

builder.mutationField("startCalendarOAuth", (t) =>
  t.withAuth({ manager: true }).field({
    type: CalendarOAuthStart,
    description:
      "Starts connecting a Google or Microsoft calendar by signing in (OAuth 2.0 with PKCE). With connectionId, " +
      "the sign-in renews that connection's grant (after it broke) instead of creating one. Fails with " +
      "CALENDAR_CONNECTION_FAILED (reason not_configured) when the server has no OAuth client for the provider.",
    args: {
      provider: t.arg({ type: CalendarOAuthProvider, required: true }),
      name: t.arg.string({ required: true }),
      connectionId: t.arg.int(),
    },
    resolve: (_root, args, context) =>
      context.services.calendarOAuth.start(context.viewer.accountId, withoutNulls(args)),
  }),
);

const UpdateCalendarConnectionInput = builder.inputType("UpdateCalendarConnectionInput", {
  description:
    "Omitted fields keep their values. CalDAV: url, readUrls, username, password; Cal.com: apiKey, eventTypeId; " +
    'Google and Microsoft: url (calendar id, "primary" by default) and readUrls.',
  fields: (t) => ({
    name: t.string(),
    url: t.string(),
    readUrls: t.stringList(),
    username: t.string(),
    password: t.string({ description: "Checked with the provider, then stored encrypted; never returned." }),
    apiKey: t.string({ description: "Cal.com: checked, then stored encrypted; never returned." }),
    eventTypeId: t.int(),
  }),
});

builder.mutationField("updateCalendarConnection", (t) =>
  t.withAuth({ manager: true }).field({
    type: CalendarConnection,
    description:
      "Changes a connection (e.g. a new password after it broke). The provider checks the result before it " +
      "is saved, which makes the connection active again; refusals fail with CALENDAR_CONNECTION_FAILED.",
    args: {
      id: t.arg.int({ required: true }),
      input: t.arg({ type: UpdateCalendarConnectionInput, required: true }),
    },
    resolve: (_root, { id, input }, context) =>
      context.services.calendars.updateConnection(context.viewer.accountId, id, withoutNulls(input)),
  }),
);

builder.mutationField("deleteCalendarConnection", (t) =>
  t.withAuth({ manager: true }).int({
    description: "Deletes a connection and the appointment types that use it; returns its id.",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.calendars.deleteConnection(context.viewer.accountId, id);
      return id;
    },
  }),
);

const HoursRange = builder.objectRef<{ start: string; end: string }>("HoursRange").implement({
  description: "Local wall-clock times, HH:MM; 24:00 ends a day.",
  fields: (t) => ({ start: t.exposeString("start"), end: t.exposeString("end") }),
});

const HoursRangeInput = builder.inputType("HoursRangeInput", {
  fields: (t) => ({ start: t.string({ required: true }), end: t.string({ required: true }) }),
});

type WeeklyHours = Partial<Record<(typeof WEEKDAY_KEYS)[number], { start: string; end: string }[]>>;

export const BusinessHours = builder.objectRef<WeeklyHours>("BusinessHours").implement({
  description:
    "Open ranges per weekday in the time zone of what they belong to; a day without ranges is closed.",
  fields: (t) =>
    Object.fromEntries(
      WEEKDAY_KEYS.map((day) => [day, t.field({ type: [HoursRange], resolve: (hours) => hours[day] ?? [] })]),
    ),
});

export const BusinessHoursInput = builder.inputType("BusinessHoursInput", {
  fields: (t) => Object.fromEntries(WEEKDAY_KEYS.map((day) => [day, t.field({ type: [HoursRangeInput] })])),
});

const AppointmentType = builder.prismaObject("AppointmentType", {
  description: "What can be booked and when (docs/calendars.md#availability).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    connectionId: t.exposeInt("connectionId"),
    name: t.exposeString("name"),
    durationMinutes: t.exposeInt("durationMinutes"),
    bufferBeforeMinutes: t.exposeInt("bufferBeforeMinutes"),
    bufferAfterMinutes: t.exposeInt("bufferAfterMinutes"),
    minimumNoticeMinutes: t.exposeInt("minimumNoticeMinutes"),
    horizonDays: t.exposeInt("horizonDays"),
    timezone: t.exposeString("timezone"),
    businessHours: t.field({ type: BusinessHours, resolve: (type) => type.businessHours as WeeklyHours }),
    slotGranularityMinutes: t.exposeInt("slotGranularityMinutes"),
    maxPerDay: t.exposeInt("maxPerDay", {
      nullable: true,
      description: "Bookings of this type per local day (in its time zone) at most; null: no limit.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryField("appointmentTypes", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [AppointmentType],
    resolve: (_root, _args, context) =>
      context.services.calendars.listAppointmentTypes(context.viewer.accountId),
  }),
);

const CreateAppointmentTypeInput = builder.inputType("CreateAppointmentTypeInput", {
  fields: (t) => ({
    connectionId: t.int({ required: true }),
    name: t.string({ required: true }),
    durationMinutes: t.int({ required: true }),
    bufferBeforeMinutes: t.int({ description: "Default 0." }),
    bufferAfterMinutes: t.int({ description: "Default 0." }),
    minimumNoticeMinutes: t.int({ description: "Default 0." }),
    horizonDays: t.int({ description: "How far ahead slots are offered; default 60." }),
    timezone: t.string({
      required: true,
      description: "IANA zone of the business hours, e.g. Europe/Berlin.",
    }),
    businessHours: t.field({ type: BusinessHoursInput, required: true }),
    slotGranularityMinutes: t.int({ description: "Slots start every this many minutes; default 30." }),
    maxPerDay: t.int(),
  }),
});

builder.mutationField("createAppointmentType", (t) =>
  t.withAuth({ manager: true }).field({
    type: AppointmentType,
    args: { input: t.arg({ type: CreateAppointmentTypeInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.calendars.createAppointmentType(context.viewer.accountId, withoutNulls(input)),
  }),
);

builder.mutationField("deleteAppointmentType", (t) =>
  t.withAuth({ manager: true }).int({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.calendars.deleteAppointmentType(context.viewer.accountId, id);
      return id;
    },
  }),
);

const TimeSlot = builder.objectRef<{ start: number; end: number }>("TimeSlot").implement({
  fields: (t) => ({
    start: t.field({ type: "DateTime", resolve: (slot) => new Date(slot.start) }),
    end: t.field({ type: "DateTime", resolve: (slot) => new Date(slot.end) }),
  }),
});

builder.queryField("availableSlots", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [TimeSlot],
    description:
      "Bookable slots of an appointment type starting in [from, to) (at most 31 days): business hours " +
      "minus the calendar's busy time, Voxgate's appointments and buffers, within the minimum notice and " +
      "booking horizon, without days whose maxPerDay is reached.",
    args: {
      appointmentTypeId: t.arg.int({ required: true }),
      from: t.arg({ type: "DateTime", required: true }),
      to: t.arg({ type: "DateTime", required: true }),
    },
    // Through bookings: Voxgate's own appointments and maxPerDay count as for a booking.
    resolve: (_root, args, context) =>
      context.services.appointments.availableSlots(
        context.viewer.accountId,
        args.appointmentTypeId,
        new Date(args.from),
        new Date(args.to),
      ),
  }),
);

/** GraphQL passes omitted optional fields as null; the service's defaults apply to absent ones. */
function withoutNulls<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null)) as Partial<T>;
}
