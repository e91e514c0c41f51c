import { html, nothing } from "lit";
import { ApiError } from "../api/client.ts";
import type { ConsoleCalendarsScreenQuery, CreateAppointmentTypeInput } from "../generated/graphql.ts";
import { describedBy, type FormErrors, fieldError, formMessage } from "../screen.ts";
import { browserTimeZone, timeZones } from "../zoned-format.ts";
import { type BusinessHoursEditor, WEEKDAYS } from "./calendars-hours.ts";

export type AppointmentType = ConsoleCalendarsScreenQuery["appointmentTypes"][number];

/** One appointment type's row: its rules, its hours in short, and its preview and delete buttons. */
export function renderTypeRow(
  type: AppointmentType,
  actions: { preview(type: AppointmentType): void; remove(type: AppointmentType): void },
) {
  const hours = WEEKDAYS.filter(([day]) => type.businessHours[day].length > 0)
    .map(
      ([day, name]) =>
        `${name.slice(0, 3)} ${type.businessHours[day].map((r) => `${r.start}–${r.end}`).join(", ")}`,
    )
    .join("; ");
  return html`<tr>
      <td>${type.name}<br /><span class="muted">${type.timezone}</span></td>
      <td class="num">${type.durationMinutes}</td>
      <td>${type.bufferBeforeMinutes} before, ${type.bufferAfterMinutes} after</td>
      <td>${type.minimumNoticeMinutes} min</td>
      <td class="num">${type.horizonDays} days</td>
      <td>${hours || "Closed"}${type.maxPerDay ? html`<br /><span class="muted">at most ${type.maxPerDay} a day</span>` : nothing}
        <br /><span class="muted">every ${type.slotGranularityMinutes} min</span></td>
      <td><div class="row">
        <button type="button" @click=${() => actions.preview(type)} aria-label="Preview the availability of ${type.name}">Availability</button>
        <button type="button" class="danger" @click=${() => actions.remove(type)} aria-label="Delete appointment type ${type.name}">Delete</button>
      </div></td>
    </tr>`;
}

/** The form defining a new appointment type of `connection`, its business hours from `hours`. */
export function renderTypeForm(
  connection: { name: string },
  errors: FormErrors,
  hours: BusinessHoursEditor,
  actions: { submit(event: SubmitEvent): void; cancel(): void },
) {
  const field = (name: string, label: string, value: string, hint?: string) =>
    html`<div><label for="type-${name}">${label}</label>
        <input id="type-${name}" name=${name} type="number" min="0" step="1" value=${value}
          aria-invalid=${errors.fields[name] ? "true" : "false"} aria-describedby=${describedBy(errors, name)} />
        ${hint ? html`<span class="hint">${hint}</span>` : nothing}${fieldError(errors, name)}</div>`;
  return html`<form class="type-form" novalidate @submit=${actions.submit}
      aria-label="New appointment type for ${connection.name}">
      <h3>New appointment type</h3>
      <div class="grid">
        <div><label for="type-name">Name</label>
          <input id="type-name" name="name" placeholder="Consultation" aria-describedby=${describedBy(errors, "name")} />${fieldError(errors, "name")}</div>
        <div><label for="type-timezone">Time zone</label>
          <input id="type-timezone" name="timezone" list="zones" value=${browserTimeZone()} aria-describedby=${describedBy(errors, "timezone")} />
          <datalist id="zones">${timeZones().map((zone) => html`<option value=${zone}></option>`)}</datalist>
          ${fieldError(errors, "timezone")}</div>
        ${field("durationMinutes", "Duration (minutes)", "30")}
        ${field("slotGranularityMinutes", "Slots start every (minutes)", "30")}
        ${field("bufferBeforeMinutes", "Free before (minutes)", "0")}
        ${field("bufferAfterMinutes", "Free after (minutes)", "0")}
        ${field("minimumNoticeMinutes", "Minimum notice (minutes)", "60")}
        ${field("horizonDays", "Bookable up to (days ahead)", "60")}
        ${field("maxPerDay", "At most per day", "", "Empty: no limit.")}
      </div>
      ${hours.render(errors)}
      ${formMessage(errors)}
      <p class="row"><button class="primary" type="submit">Create appointment type</button>
        <button type="button" @click=${actions.cancel}>Cancel</button></p>
    </form>`;
}

/** The new type form's values as the API's input; a missing duration is refused here, as a field message. */
export function appointmentTypeInput(
  data: FormData,
  connectionId: number,
  hours: BusinessHoursEditor,
): CreateAppointmentTypeInput {
  const number = (name: string) => (data.get(name) === "" ? null : Number(data.get(name)));
  const durationMinutes = number("durationMinutes");
  // Required by the schema itself: without it GraphQL would refuse the request as a whole.
  if (durationMinutes === null)
    throw new ApiError("Some fields need attention.", "VALIDATION_FAILED", {
      durationMinutes: ["The duration is required."],
    });
  return {
    connectionId,
    name: String(data.get("name") ?? ""),
    durationMinutes,
    bufferBeforeMinutes: number("bufferBeforeMinutes"),
    bufferAfterMinutes: number("bufferAfterMinutes"),
    minimumNoticeMinutes: number("minimumNoticeMinutes"),
    horizonDays: number("horizonDays"),
    slotGranularityMinutes: number("slotGranularityMinutes"),
    maxPerDay: number("maxPerDay"),
    timezone: String(data.get("timezone") ?? ""),
    businessHours: hours.toInput(),
  };
}
