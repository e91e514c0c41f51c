import { html, nothing } from "lit";
import type { ConsoleApi } from "../api/client.ts";
import { CalendarConnectionsQuery } from "../api/operations.ts";
import type { ConsoleAppointmentTypesQuery, ConsoleCalendarConnectionsQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { type FormErrors, fieldError, loading } from "../screen.ts";
import { calendarConnectionStatus } from "../status-words.ts";
import { AppointmentTypesQuery, AssistantCalendarQuery } from "./assistant-editor.operations.ts";

/** What the assistant may book: the account's appointment types and which of them are ticked. */
export type CalendarChoices =
  | {
      types: ConsoleAppointmentTypesQuery["appointmentTypes"];
      connections: ConsoleCalendarConnectionsQuery["calendarConnections"];
      selected: number[];
    }
  | { error: string };

/** Apart from the settings: a failure here leaves the rest of the editor working. */
export async function loadCalendarChoices(api: ConsoleApi, assistantId: number): Promise<CalendarChoices> {
  try {
    const [{ appointmentTypes }, { calendarConnections }, { assistant }] = await Promise.all([
      api.request(AppointmentTypesQuery),
      api.request(CalendarConnectionsQuery),
      api.request(AssistantCalendarQuery, { id: assistantId }),
    ]);
    return {
      types: appointmentTypes,
      connections: calendarConnections,
      selected: assistant.appointmentTypeIds,
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The ticked appointment types of the settings form, if it showed them (a list that failed to load is left as it is). */
export function calendarInput(calendar: CalendarChoices | null, form: HTMLFormElement): number[] | undefined {
  return calendar && "selected" in calendar
    ? new FormData(form).getAll("appointmentTypeIds").map(Number)
    : undefined;
}

/** The settings form's "Calendar" fieldset: the appointment types to tick, each with its calendar. */
export function renderCalendar(isNew: boolean, calendar: CalendarChoices | null, errors: FormErrors) {
  let content: unknown;
  if (isNew) content = html`<p class="hint">Create the assistant first, then choose what it may book.</p>`;
  else if (calendar === null) content = loading;
  else if ("error" in calendar)
    content = html`<p class="error">The calendar settings could not be loaded: ${calendar.error}</p>`;
  else if (calendar.types.length === 0)
    content = html`<p class="muted">No appointment types yet: define them in <a href=${href("calendars")}>Calendars</a>.</p>`;
  else
    content = html`<p class="hint" id="calendar-hint">Ticked types are offered to the model as booking functions
        (check availability, book, find, reschedule, cancel). Types are set up in <a href=${href("calendars")}>Calendars</a>.</p>
        ${calendar.types.map((type) => {
          const connection = calendar.connections.find((c) => c.id === type.connectionId);
          return html`<label class="inline"><input type="checkbox" name="appointmentTypeIds" value=${type.id}
              .checked=${calendar.selected.includes(type.id)} aria-describedby="calendar-hint" />
            ${type.name} (${type.durationMinutes} min, ${type.timezone}${connection ? `, ${connection.name}` : ""})
            ${connection?.status === "broken" ? html`<span class="badge broken">calendar ${calendarConnectionStatus(connection.status).toLowerCase()}</span>` : nothing}</label>`;
        })}
        ${fieldError(errors, "appointmentTypeIds")}`;
  return html`<fieldset><legend>Calendar</legend>${content}</fieldset>`;
}
