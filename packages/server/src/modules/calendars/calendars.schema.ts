import { builder } from "../../builder.ts";
import { WEEKDAY_KEYS } from "./availability.ts";

export const CalendarProviderKind = builder.enumType("CalendarProviderKind", {
  description: "Where a connection's calendars live. Cal.com, Google and Microsoft 365 are not built yet.",
  values: {
    caldav: { value: "caldav", description: "A CalDAV server (RFC 4791) with a username and password." },
  },
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
      description: "The calendar events are written to; it is read for busy time too.",
    }),
    readUrls: t.exposeStringList("readUrls", {
      description: "Further calendars whose events count as busy time.",
    }),
    username: t.exposeString("username"),
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
  fields: (t) => ({
    name: t.string({ required: true }),
    provider: t.field({ type: CalendarProviderKind, required: true }),
    url: t.string({ required: true, description: "CalDAV: the calendar collection's URL." }),
    readUrls: t.stringList({ description: "Further calendars to read for busy time (at most 10)." }),
    username: t.string({ required: true }),
    password: t.string({
      required: true,
      description: "Checked with the provider before saving, then stored encrypted; never returned.",
    }),
  }),
});

builder.mutationField("createCalendarConnection", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CalendarConnection,
    description:
      "Saves a calendar connection once the provider accepts its credentials. Refusals fail with " +
      "CALENDAR_CONNECTION_FAILED naming what was refused (extensions.reason, url, status).",
    args: { input: t.arg({ type: CreateCalendarConnectionInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.calendars.createConnection(context.viewer.accountId, input),
  }),
);

const UpdateCalendarConnectionInput = builder.inputType("UpdateCalendarConnectionInput", {
  description: "Omitted fields keep their values.",
  fields: (t) => ({
    name: t.string(),
    url: t.string(),
    readUrls: t.stringList(),
    username: t.string(),
    password: t.string({ description: "Checked with the provider, then stored encrypted; never returned." }),
  }),
});

builder.mutationField("updateCalendarConnection", (t) =>
  t.withAuth({ authenticated: true }).field({
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
  t.withAuth({ authenticated: true }).int({
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

const BusinessHours = builder.objectRef<WeeklyHours>("BusinessHours").implement({
  description: "Open ranges per weekday in the appointment type's time zone; a day without ranges is closed.",
  fields: (t) =>
    Object.fromEntries(
      WEEKDAY_KEYS.map((day) => [day, t.field({ type: [HoursRange], resolve: (hours) => hours[day] ?? [] })]),
    ),
});

const BusinessHoursInput = builder.inputType("BusinessHoursInput", {
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
  t.withAuth({ authenticated: true }).field({
    type: AppointmentType,
    args: { input: t.arg({ type: CreateAppointmentTypeInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.calendars.createAppointmentType(context.viewer.accountId, withoutNulls(input)),
  }),
);

builder.mutationField("deleteAppointmentType", (t) =>
  t.withAuth({ authenticated: true }).int({
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
