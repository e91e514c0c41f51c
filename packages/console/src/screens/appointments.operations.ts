import { graphql, withFragments } from "../api/graphql.ts";

// What the appointments screen shows of one; each document below sends it with its own text.
export const AppointmentFields = graphql(`
  fragment ConsoleAppointmentFields on Appointment {
    id status startsAt endsAt timezone customerName customerPhone customerEmail notes
    appointmentTypeId appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt
    cancelledAt
  }
`);

export const AppointmentsQuery = withFragments(
  graphql(`
    query ConsoleAppointments($page: Int, $filter: AppointmentFilter) {
      appointments(page: $page, perPage: 20, filter: $filter) {
        items { ...ConsoleAppointmentFields }
        pageInfo { currentPage lastPage total }
      }
    }
  `),
  AppointmentFields,
);

export const CancelAppointmentMutation = withFragments(
  graphql(`
    mutation ConsoleCancelAppointment($id: Int!) {
      cancelAppointment(id: $id) { ...ConsoleAppointmentFields }
    }
  `),
  AppointmentFields,
);

export const RescheduleAppointmentMutation = withFragments(
  graphql(`
    mutation ConsoleRescheduleAppointment($id: Int!, $startsAt: DateTime!) {
      rescheduleAppointment(id: $id, startsAt: $startsAt) { ...ConsoleAppointmentFields }
    }
  `),
  AppointmentFields,
);
