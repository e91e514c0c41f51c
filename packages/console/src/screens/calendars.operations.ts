import { graphql } from "../api/graphql.ts";

export const CalendarsScreenQuery = graphql(`
  query ConsoleCalendarsScreen {
    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }
    appointmentTypes {
      id connectionId name durationMinutes bufferBeforeMinutes bufferAfterMinutes minimumNoticeMinutes
      horizonDays timezone slotGranularityMinutes maxPerDay createdAt
      businessHours {
        mon { start end } tue { start end } wed { start end } thu { start end }
        fri { start end } sat { start end } sun { start end }
      }
    }
  }
`);

export const CreateCalendarConnectionMutation = graphql(`
  mutation ConsoleCreateCalendarConnection($input: CreateCalendarConnectionInput!) {
    createCalendarConnection(input: $input) { id status }
  }
`);

export const UpdateCalendarConnectionMutation = graphql(`
  mutation ConsoleUpdateCalendarConnection($id: Int!, $input: UpdateCalendarConnectionInput!) {
    updateCalendarConnection(id: $id, input: $input) { id status lastError }
  }
`);

export const DeleteCalendarConnectionMutation = graphql(`
  mutation ConsoleDeleteCalendarConnection($id: Int!) {
    deleteCalendarConnection(id: $id)
  }
`);

export const CreateAppointmentTypeMutation = graphql(`
  mutation ConsoleCreateAppointmentType($input: CreateAppointmentTypeInput!) {
    createAppointmentType(input: $input) { id }
  }
`);

export const DeleteAppointmentTypeMutation = graphql(`
  mutation ConsoleDeleteAppointmentType($id: Int!) {
    deleteAppointmentType(id: $id)
  }
`);

/** With connectionId, the sign-in renews that connection's grant (a repair) instead of adding one. */
export const StartCalendarOAuthMutation = graphql(`
  mutation ConsoleStartCalendarOAuth($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {
    startCalendarOAuth(provider: $provider, name: $name, connectionId: $connectionId) { authorizationUrl }
  }
`);
