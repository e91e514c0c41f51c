import type { ConsoleConversationsQuery } from "../generated/graphql.ts";
import { TypedDocumentString } from "../generated/graphql.ts";

/*
 * Operations on GraphQL that other branches of issue #29 add to the server (bookings, OAuth and Cal.com
 * providers, SMS conversations). Until they are in packages/server/schema.graphql, codegen cannot type
 * these documents (it validates every document against the schema), so they and their types are written
 * here by hand, under the names codegen would give them. At merge: move each document into
 * operations.ts as `graphql(...)`, run `pnpm --filter @voxgate/console codegen`, import the types from
 * generated/graphql.ts instead, and delete this file.
 */

export type AppointmentStatus = "booked" | "cancelled";
/** Today's schema has caldav only; the provider branch adds the others. */
export type CalendarProvider = "caldav" | "calcom" | "google" | "microsoft";
/** Today's schema has api, test and widget; the SMS branch adds sms. */
export type Channel = ConsoleConversationsQuery["conversations"]["items"][number]["channel"] | "sms";

export interface Appointment {
  id: number;
  status: AppointmentStatus;
  startsAt: string;
  endsAt: string;
  timezone: string;
  customerName: string;
  customerPhone: string | null;
  customerEmail: string | null;
  notes: string | null;
  appointmentTypeId: number;
  appointmentTypeName: string;
  connectionId: number;
  provider: CalendarProvider;
  assistantId: number | null;
  callId: number | null;
  conversationId: string | null;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
}

const APPOINTMENT_FIELDS = `id status startsAt endsAt timezone customerName customerPhone customerEmail notes
  appointmentTypeId appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt
  cancelledAt`;

export interface ConsoleAppointmentsQuery {
  appointments: { items: Appointment[]; pageInfo: { currentPage: number; lastPage: number; total: number } };
}
export interface ConsoleAppointmentsQueryVariables {
  page?: number | null;
  status?: AppointmentStatus | null;
  assistantId?: number | null;
  from?: string | null;
  to?: string | null;
}

// The filter's fields are passed one by one, so the document does not depend on the input type's name.
export const AppointmentsQuery = new TypedDocumentString<
  ConsoleAppointmentsQuery,
  ConsoleAppointmentsQueryVariables
>(`
  query ConsoleAppointments($page: Int, $status: AppointmentStatus, $assistantId: Int, $from: DateTime, $to: DateTime) {
    appointments(page: $page, perPage: 20, filter: { status: $status, assistantId: $assistantId, from: $from, to: $to }) {
      items { ${APPOINTMENT_FIELDS} }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const CancelAppointmentMutation = new TypedDocumentString<
  { cancelAppointment: Appointment },
  { id: number }
>(`
  mutation ConsoleCancelAppointment($id: Int!) {
    cancelAppointment(id: $id) { ${APPOINTMENT_FIELDS} }
  }
`);

export const RescheduleAppointmentMutation = new TypedDocumentString<
  { rescheduleAppointment: Appointment },
  { id: number; startsAt: string }
>(`
  mutation ConsoleRescheduleAppointment($id: Int!, $startsAt: DateTime!) {
    rescheduleAppointment(id: $id, startsAt: $startsAt) { ${APPOINTMENT_FIELDS} }
  }
`);

export const AssistantCalendarQuery = new TypedDocumentString<
  { assistant: { id: number; appointmentTypeIds: number[] } },
  { id: number }
>(`
  query ConsoleAssistantCalendar($id: Int!) {
    assistant(id: $id) { id appointmentTypeIds }
  }
`);

/** With connectionId, the sign-in renews that connection's grant (a repair) instead of adding one. */
export const StartCalendarOAuthMutation = new TypedDocumentString<
  { startCalendarOAuth: { authorizationUrl: string } },
  { provider: "google" | "microsoft"; name: string; connectionId?: number | null }
>(`
  mutation ConsoleStartCalendarOAuth($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {
    startCalendarOAuth(provider: $provider, name: $name, connectionId: $connectionId) { authorizationUrl }
  }
`);

export type SmsConversation = Omit<ConsoleConversationsQuery["conversations"]["items"][number], "channel"> & {
  channel: Channel;
};

export const SmsConversationsQuery = new TypedDocumentString<
  { conversations: { items: SmsConversation[] } },
  { page?: number | null }
>(`
  query ConsoleSmsConversations($page: Int) {
    conversations(page: $page, perPage: 30, channel: sms) {
      items { id assistantId channel aiDisabled customerIdentifier origin updatedAt unread lastMessageAt lastMessage { id role content } }
    }
  }
`);

/*
 * Cal.com connections: an API key and the event type bookings go to (createCalendarConnection's and
 * updateCalendarConnection's `apiKey` and `eventTypeId`); these two functions are the only place that
 * names them.
 */
export interface CalcomForm {
  name: string;
  apiKey: string;
  eventTypeId: string;
}

export const CreateCalcomConnectionMutation = new TypedDocumentString<
  { createCalendarConnection: { id: number; status: string } },
  { input: Record<string, unknown> }
>(`
  mutation ConsoleCreateCalcomConnection($input: CreateCalendarConnectionInput!) {
    createCalendarConnection(input: $input) { id status }
  }
`);

export const UpdateCalcomConnectionMutation = new TypedDocumentString<
  { updateCalendarConnection: { id: number; status: string; lastError: string | null } },
  { id: number; input: Record<string, unknown> }
>(`
  mutation ConsoleUpdateCalcomConnection($id: Int!, $input: UpdateCalendarConnectionInput!) {
    updateCalendarConnection(id: $id, input: $input) { id status lastError }
  }
`);

export function calcomCreateInput(form: CalcomForm): Record<string, unknown> {
  return {
    name: form.name,
    provider: "calcom",
    apiKey: form.apiKey,
    eventTypeId: form.eventTypeId === "" ? null : Number(form.eventTypeId),
  };
}

/** A new API key for a connection whose key was revoked. */
export function calcomRepairInput(apiKey: string): Record<string, unknown> {
  return { apiKey };
}
