import { z } from "zod";
import { paginationEnvelope } from "../envelope.ts";
import { graphql } from "../generated/gql.ts";
import type { RestAppointmentFragment } from "../generated/graphql.ts";
import { pageQuery, paginated } from "../openapi/schemas.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";

// Not in the legacy specification: Voxgate's own resource, so its times are plain ISO 8601 (UTC).
graphql(`
  fragment RestAppointment on Appointment {
    id status startsAt endsAt timezone customerName customerPhone customerEmail notes appointmentTypeId
    appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt cancelledAt
  }
`);

const instant = z.iso
  .datetime()
  .meta({ description: "UTC, ISO 8601", examples: ["2027-01-04T09:00:00.000Z"] });

const appointmentSchema = z.object({
  id: z.int(),
  status: z.enum(["booked", "cancelled"]),
  starts_at: instant,
  ends_at: instant,
  timezone: z.string().meta({ description: "The appointment type's IANA zone" }),
  customer_name: z.string(),
  customer_phone: z.string().nullable(),
  customer_email: z.string().nullable(),
  notes: z.string().nullable(),
  appointment_type_id: z.int(),
  appointment_type_name: z.string(),
  connection_id: z.int(),
  provider: z.enum(["caldav"]),
  assistant_id: z.int().nullable().meta({ description: "The assistant whose model booked it" }),
  call_id: z.int().nullable(),
  conversation_id: z.string().nullable(),
  created_at: instant,
  updated_at: instant,
  cancelled_at: instant.nullable(),
});

function restAppointment(appointment: RestAppointmentFragment) {
  return {
    id: appointment.id,
    status: appointment.status,
    starts_at: new Date(appointment.startsAt).toISOString(),
    ends_at: new Date(appointment.endsAt).toISOString(),
    timezone: appointment.timezone,
    customer_name: appointment.customerName,
    customer_phone: appointment.customerPhone ?? null,
    customer_email: appointment.customerEmail ?? null,
    notes: appointment.notes ?? null,
    appointment_type_id: appointment.appointmentTypeId,
    appointment_type_name: appointment.appointmentTypeName,
    connection_id: appointment.connectionId,
    provider: appointment.provider,
    assistant_id: appointment.assistantId ?? null,
    call_id: appointment.callId ?? null,
    conversation_id: appointment.conversationId ?? null,
    created_at: new Date(appointment.createdAt).toISOString(),
    updated_at: new Date(appointment.updatedAt).toISOString(),
    cancelled_at: appointment.cancelledAt ? new Date(appointment.cancelledAt).toISOString() : null,
  };
}

const text = (value: string | null) => (value === null || value === "" ? undefined : value);
const numeric = (value: unknown) => (typeof value === "string" ? intParam(value) : value);
const single = (message: string) =>
  z.object({ message: z.string().meta({ examples: [message] }), data: appointmentSchema });
const slotErrors = {
  409: "The slot cannot be booked (`SLOT_UNAVAILABLE`: taken, closed or day_full), or the idempotency key was used for another booking",
  422: "Invalid fields, or the calendar refused or could not be reached (nothing was booked)",
};

export const appointmentRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/user/appointments",
    doc: {
      tag: "Appointments",
      summary: "Book an appointment in a connected calendar (an extension of the specification)",
      description:
        "The slot is re-checked against the calendar, then the event is written. The same `idempotency_key` books once: a retry answers the booking it made.",
      body: {
        schema: z.object({
          appointment_type_id: z.int(),
          starts_at: instant.meta({ description: "A slot's start (GraphQL `availableSlots`)" }),
          customer_name: z.string().max(200),
          customer_phone: z.string().optional().meta({ description: "E.164" }),
          customer_email: z.string().optional(),
          notes: z.string().max(2000).optional(),
          idempotency_key: z.string().max(200).optional(),
        }),
      },
      response: { status: 201, description: "Booked", schema: single("Appointment booked successfully.") },
      errors: { 404: "Unknown appointment type, or another account's", ...slotErrors },
      example: {
        body: {
          appointment_type_id: 1,
          starts_at: "2027-01-04T09:00:00Z",
          customer_name: "Ada Lovelace",
          customer_phone: "+14155550123",
        },
      },
    },
    operation: graphql(`
      mutation RestBookAppointment($input: BookAppointmentInput!) { bookAppointment(input: $input) { ...RestAppointment } }
    `),
    variables: ({ body }) => ({
      input: {
        appointmentTypeId: numeric(body.appointment_type_id),
        startsAt: body.starts_at,
        customerName: body.customer_name,
        customerPhone: body.customer_phone,
        customerEmail: body.customer_email,
        notes: body.notes,
        idempotencyKey: body.idempotency_key,
      },
    }),
    respond: (data) => ({
      status: 201,
      body: { message: "Appointment booked successfully.", data: restAppointment(data.bookAppointment) },
    }),
  }),
  route({
    method: "GET",
    path: "/user/appointments",
    doc: {
      tag: "Appointments",
      summary: "List the account's appointments, soonest first (an extension of the specification)",
      query: {
        ...pageQuery,
        status: z.enum(["booked", "cancelled"]).optional(),
        assistant_id: z.int().optional(),
        from: instant.optional().meta({ description: "Starting at or after" }),
        to: instant.optional().meta({ description: "Starting before" }),
      },
      response: { description: "A page of appointments", schema: paginated(appointmentSchema) },
      example: { query: { status: "booked" } },
    },
    operation: graphql(`
      query RestAppointments($page: Int, $perPage: Int, $filter: AppointmentFilter) {
        appointments(page: $page, perPage: $perPage, filter: $filter) {
          items { ...RestAppointment }
          pageInfo { total currentPage perPage lastPage }
        }
      }
    `),
    variables: ({ query }) => ({
      page: intParam(query.get("page")),
      perPage: intParam(query.get("per_page")),
      filter: {
        status: text(query.get("status")),
        assistantId: intParam(query.get("assistant_id")),
        from: text(query.get("from")),
        to: text(query.get("to")),
      },
    }),
    respond: ({ appointments: page }, request) => ({
      body: paginationEnvelope({
        data: page.items.map(restAppointment),
        pageInfo: page.pageInfo,
        path: request.endpointUrl,
        query: request.query,
      }),
    }),
  }),
  route({
    method: "GET",
    path: "/user/appointments/{id}",
    doc: {
      tag: "Appointments",
      summary: "Show an appointment (an extension of the specification)",
      pathParams: { id: "The appointment" },
      response: { description: "The appointment", schema: z.object({ data: appointmentSchema }) },
      errors: { 404: "Unknown appointment, or another account's" },
      example: { params: { id: 1 } },
    },
    params: { id: "int" },
    operation: graphql(`
      query RestAppointment($id: Int!) { appointment(id: $id) { ...RestAppointment } }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: ({ appointment }) =>
      appointment
        ? { body: { data: restAppointment(appointment) } }
        : { status: 404, body: { message: "Appointment not found." } },
  }),
  route({
    method: "POST",
    path: "/user/appointments/{id}/reschedule",
    doc: {
      tag: "Appointments",
      summary: "Move an appointment to another slot of its type (an extension of the specification)",
      pathParams: { id: "The appointment" },
      body: { schema: z.object({ starts_at: instant }) },
      response: { description: "Moved", schema: single("Appointment rescheduled successfully.") },
      errors: {
        404: "Unknown appointment, or another account's",
        ...slotErrors,
        409: `${slotErrors[409]}, or the appointment is cancelled`,
      },
      example: { params: { id: 1 }, body: { starts_at: "2027-01-04T10:00:00Z" } },
    },
    params: { id: "int" },
    operation: graphql(`
      mutation RestRescheduleAppointment($id: Int!, $startsAt: DateTime!) {
        rescheduleAppointment(id: $id, startsAt: $startsAt) { ...RestAppointment }
      }
    `),
    variables: ({ params, body }) => ({ id: Number(params.id), startsAt: body.starts_at }),
    respond: (data) => ({
      body: {
        message: "Appointment rescheduled successfully.",
        data: restAppointment(data.rescheduleAppointment),
      },
    }),
  }),
  route({
    method: "POST",
    path: "/user/appointments/{id}/cancel",
    doc: {
      tag: "Appointments",
      summary: "Cancel an appointment; its calendar event is deleted (an extension of the specification)",
      pathParams: { id: "The appointment" },
      response: {
        description: "Cancelled (also when it already was)",
        schema: single("Appointment cancelled successfully."),
      },
      errors: {
        404: "Unknown appointment, or another account's",
        422: "The calendar refused or could not be reached (the appointment stays booked)",
      },
      example: { params: { id: 1 } },
    },
    params: { id: "int" },
    operation: graphql(`
      mutation RestCancelAppointment($id: Int!) { cancelAppointment(id: $id) { ...RestAppointment } }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: (data) => ({
      body: { message: "Appointment cancelled successfully.", data: restAppointment(data.cancelAppointment) },
    }),
  }),
];
