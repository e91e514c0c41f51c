import { builder } from "../../builder.ts";
import { CalendarProviderKind } from "../calendars/calendars.schema.ts";
import { pageOf } from "../common/pagination.schema.ts";

const AppointmentStatus = builder.enumType("AppointmentStatus", {
  values: {
    booked: { value: "booked", description: "The event is in the calendar." },
    cancelled: { value: "cancelled", description: "Cancelled: the event was removed from the calendar." },
  },
});

const Appointment = builder.prismaObject("Appointment", {
  description: "An appointment Voxgate booked in a connected calendar (docs/calendars.md#bookings).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    status: t.field({ type: AppointmentStatus, resolve: (row) => row.status as "booked" | "cancelled" }),
    startsAt: t.expose("startsAt", { type: "DateTime" }),
    endsAt: t.expose("endsAt", { type: "DateTime" }),
    timezone: t.exposeString("timezone", { description: "The appointment type's zone when it was booked." }),
    customerName: t.exposeString("customerName"),
    customerPhone: t.exposeString("customerPhone", { nullable: true }),
    customerEmail: t.exposeString("customerEmail", { nullable: true }),
    notes: t.exposeString("notes", { nullable: true }),
    appointmentTypeId: t.exposeInt("appointmentTypeId"),
    appointmentTypeName: t.exposeString("appointmentTypeName", {
      description: "The type's name when it was booked (the record outlives the type).",
    }),
    connectionId: t.exposeInt("connectionId"),
    provider: t.expose("provider", { type: CalendarProviderKind }),
    assistantId: t.exposeInt("assistantId", {
      nullable: true,
      description: "The assistant whose model booked it; null when booked through the API.",
    }),
    callId: t.exposeInt("callId", { nullable: true, description: "The call it was booked on." }),
    conversationId: t.exposeString("conversationId", {
      nullable: true,
      description: "The conversation it was booked in.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    cancelledAt: t.expose("cancelledAt", { type: "DateTime", nullable: true }),
  }),
});

const AppointmentPage = pageOf("AppointmentPage", Appointment);

const AppointmentFilter = builder.inputType("AppointmentFilter", {
  fields: (t) => ({
    status: t.field({ type: AppointmentStatus }),
    assistantId: t.int(),
    from: t.field({ type: "DateTime", description: "Appointments starting at or after this instant." }),
    to: t.field({ type: "DateTime", description: "Appointments starting before this instant." }),
  }),
});

builder.queryField("appointments", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: AppointmentPage,
    description: "The account's appointments, soonest first, 25 per page by default.",
    args: { filter: t.arg({ type: AppointmentFilter }), page: t.arg.int(), perPage: t.arg.int() },
    resolve: (_root, args, context) =>
      context.services.appointments.list(
        context.viewer.accountId,
        {
          status: args.filter?.status ?? null,
          assistantId: args.filter?.assistantId ?? null,
          from: args.filter?.from ? new Date(args.filter.from) : null,
          to: args.filter?.to ? new Date(args.filter.to) : null,
        },
        { page: args.page, perPage: args.perPage },
      ),
  }),
);

builder.queryField("appointment", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: Appointment,
    nullable: true,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.appointments.get(context.viewer.accountId, id).catch((error: unknown) => {
        if ((error as { code?: string }).code === "NOT_FOUND") return null;
        throw error;
      }),
  }),
);

const BookAppointmentInput = builder.inputType("BookAppointmentInput", {
  fields: (t) => ({
    appointmentTypeId: t.int({ required: true }),
    startsAt: t.field({ type: "DateTime", required: true, description: "A slot start from availableSlots." }),
    customerName: t.string({ required: true }),
    customerPhone: t.string({ description: "E.164." }),
    customerEmail: t.string(),
    notes: t.string(),
    idempotencyKey: t.string({
      description:
        "Up to 200 characters: the same key books once, and a retry with it returns that booking (never a second event).",
    }),
  }),
});

const bookingErrors =
  "Fails with SLOT_UNAVAILABLE (extensions.reason: taken, closed, day_full) when the slot cannot be booked, " +
  "CALENDAR_CONNECTION_FAILED when the calendar refused or could not be reached (nothing is booked then).";

builder.mutationField("bookAppointment", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: Appointment,
    description: `Books a slot: re-checked against the calendar, then written to it. ${bookingErrors}`,
    args: { input: t.arg({ type: BookAppointmentInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.appointments.book(context.viewer.accountId, {
        ...input,
        startsAt: new Date(input.startsAt),
      }),
  }),
);

builder.mutationField("rescheduleAppointment", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: Appointment,
    description: `Moves a booked appointment to another slot of its type; the calendar event moves with it. ${bookingErrors}`,
    args: {
      id: t.arg.int({ required: true }),
      startsAt: t.arg({ type: "DateTime", required: true }),
    },
    resolve: (_root, { id, startsAt }, context) =>
      context.services.appointments.reschedule(context.viewer.accountId, id, new Date(startsAt)),
  }),
);

builder.mutationField("cancelAppointment", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: Appointment,
    description:
      "Cancels an appointment: its event is deleted from the calendar and the record stays, cancelled. " +
      "Cancelling a cancelled appointment returns it unchanged.",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.appointments.cancel(context.viewer.accountId, id),
  }),
);
