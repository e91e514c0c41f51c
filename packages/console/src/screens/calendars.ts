import { css, html, nothing } from "lit";
import { ApiError } from "../api/client.ts";
import {
  AvailableSlotsQuery,
  CalendarsScreenQuery,
  CreateAppointmentTypeMutation,
  CreateCalendarConnectionMutation,
  DeleteAppointmentTypeMutation,
  DeleteCalendarConnectionMutation,
  StartCalendarOAuthMutation,
  UpdateCalendarConnectionMutation,
} from "../api/operations.ts";
import type {
  CalendarOAuthProvider,
  CalendarProviderKind,
  ConsoleAvailableSlotsQuery,
  ConsoleCalendarsScreenQuery,
} from "../generated/graphql.ts";
import {
  DataScreen,
  describedBy,
  type FormErrors,
  fieldError,
  formatDate,
  formErrors,
  formMessage,
  noErrors,
} from "../screen.ts";
import { calendarConnectionStatus } from "../status-words.ts";
import { browserTimeZone, formatTime, slotsByDay, timeZones } from "../zoned-format.ts";

type Connection = ConsoleCalendarsScreenQuery["calendarConnections"][number];
type AppointmentType = ConsoleCalendarsScreenQuery["appointmentTypes"][number];
type Slot = ConsoleAvailableSlotsQuery["availableSlots"][number];

const WEEKDAYS = [
  ["mon", "Monday"],
  ["tue", "Tuesday"],
  ["wed", "Wednesday"],
  ["thu", "Thursday"],
  ["fri", "Friday"],
  ["sat", "Saturday"],
  ["sun", "Sunday"],
] as const;
type Weekday = (typeof WEEKDAYS)[number][0];
type Hours = Record<Weekday, { start: string; end: string }[]>;

const PROVIDERS: Record<CalendarProviderKind, string> = {
  caldav: "CalDAV",
  calcom: "Cal.com",
  google: "Google Calendar",
  microsoft: "Microsoft 365",
};

const PREVIEW_DAYS = 7;
/** Slot times shown per day in the preview; the rest are counted. */
const PREVIEW_PER_DAY = 12;

function defaultHours(): Hours {
  const workday = () => [{ start: "09:00", end: "17:00" }];
  return { mon: workday(), tue: workday(), wed: workday(), thu: workday(), fri: workday(), sat: [], sun: [] };
}

/** A day that ends at midnight is written 24:00; a time control can only say 00:00. */
function clockEnd(value: string): string {
  return value === "00:00" ? "24:00" : value;
}

/** Messages about the business hours, wherever in them the server found the problem. */
function hoursErrors(errors: FormErrors): string[] {
  return Object.entries(errors.fields)
    .filter(([field]) => field === "businessHours" || field.startsWith("businessHours."))
    .flatMap(([field, messages]) => {
      const [, day, index] = field.split(".");
      const name = WEEKDAYS.find(([key]) => key === day)?.[1];
      return messages.map((message) =>
        name ? `${name}${index === undefined ? "" : `, hours ${Number(index) + 1}`}: ${message}` : message,
      );
    });
}

/** One day of the preview: its first slot times, then how many more. */
function daySlots(day: string, slots: Slot[], timeZone: string) {
  const shown = slots.slice(0, PREVIEW_PER_DAY).map((slot) => formatTime(slot.start, timeZone));
  const more = slots.length - shown.length;
  return html`<li><strong>${day}</strong>: ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}</li>`;
}

/** Where the connection books: a CalDAV calendar's URL, a Cal.com event type, a Google or Microsoft calendar id. */
function connectionDetail(connection: Connection) {
  if (connection.provider === "caldav")
    return html`<span class="url">${connection.url}</span> · ${connection.username}`;
  if (connection.provider === "calcom")
    return `event type ${connection.eventTypeId ?? connection.url} · ${connection.username}`;
  return `${connection.username} · calendar ${connection.url}`;
}

function statusBadge(connection: Connection) {
  return connection.status === "broken"
    ? html`<span class="badge broken">${calendarConnectionStatus(connection.status)}</span>`
    : html`<span class="badge">${calendarConnectionStatus(connection.status)}</span>`;
}

/**
 * The account's calendar connections (CalDAV, Cal.com, Google, Microsoft 365) and the appointment types
 * booked into them: add, repair a broken one, delete; define types with their business hours and see
 * the slots they would offer.
 */
export class VxCalendars extends DataScreen<ConsoleCalendarsScreenQuery> {
  static override properties = {
    connectionId: { attribute: false },
    notice: { state: true },
    errorKey: { state: true },
    repairing: { state: true },
    addingTypeTo: { state: true },
    hours: { state: true },
    preview: { state: true },
  };
  /**
   * `#/calendars/<id>`: where the server's OAuth callback sends the browser once a Google or Microsoft
   * sign-in made (or renewed) that connection.
   */
  declare connectionId: number | null;
  declare notice: { text: string; ok: boolean } | null;
  /** Which form `errors` belong to: only one form is sent at a time. */
  declare errorKey: string | null;
  declare repairing: number | null;
  declare addingTypeTo: number | null;
  declare hours: Hours;
  declare preview: { type: AppointmentType; slots: Slot[] | null; error: string | null } | null;

  constructor() {
    super();
    this.connectionId = null;
    this.notice = null;
    this.errorKey = null;
    this.repairing = null;
    this.addingTypeTo = null;
    this.hours = defaultHours();
    this.preview = null;
  }

  protected override async fetch() {
    return await this.api.request(CalendarsScreenQuery);
  }

  #shownConnection = false;

  /** After any change: the app's broken-calendar banner reads the connections again. */
  protected override async load(page?: number): Promise<void> {
    await super.load(page);
    this.dispatchEvent(new CustomEvent("vx-calendars-changed", { bubbles: true, composed: true }));
    if (this.connectionId !== null && this.data && !this.#shownConnection) {
      this.#shownConnection = true;
      await this.showConnection(this.connectionId);
    }
  }

  /** Back from the provider's sign-in: says that it worked and brings the connection into view. */
  private async showConnection(id: number): Promise<void> {
    const connection = this.data?.calendarConnections.find((c) => c.id === id);
    if (!connection) return;
    if (connection.status === "active")
      this.notice = { text: `“${connection.name}” is connected.`, ok: true };
    await this.updateComplete;
    this.renderRoot.querySelector(`#connection-${id}`)?.scrollIntoView({ block: "nearest" });
  }

  /** Before an action that is not a form's, or when a form opens: earlier messages no longer apply. */
  private clearErrors(): void {
    this.errorKey = null;
    this.errors = noErrors;
  }

  private errorsOf(key: string): FormErrors {
    return this.errorKey === key ? this.errors : noErrors;
  }

  private send(key: string, event: SubmitEvent, action: (data: FormData) => Promise<unknown>) {
    this.errorKey = key;
    this.notice = null;
    return this.submit(event, action);
  }

  private addCaldav(event: SubmitEvent) {
    return this.send("caldav", event, async (data) => {
      await this.api.request(CreateCalendarConnectionMutation, {
        input: {
          name: String(data.get("name") ?? ""),
          provider: "caldav",
          url: String(data.get("url") ?? ""),
          readUrls: lines(data.get("readUrls")),
          username: String(data.get("username") ?? ""),
          password: String(data.get("password") ?? ""),
        },
      });
      this.notice = { text: "The calendar is connected.", ok: true };
    });
  }

  private addCalcom(event: SubmitEvent) {
    return this.send("calcom", event, async (data) => {
      const eventTypeId = String(data.get("eventTypeId") ?? "");
      await this.api.request(CreateCalendarConnectionMutation, {
        input: {
          name: String(data.get("name") ?? ""),
          provider: "calcom",
          apiKey: String(data.get("apiKey") ?? ""),
          // Empty is sent as missing, so the server names the field instead of GraphQL refusing NaN.
          eventTypeId: eventTypeId === "" ? null : Number(eventTypeId),
        },
      });
      this.notice = { text: "The Cal.com account is connected.", ok: true };
    });
  }

  /**
   * Leaves for the provider's consent page (to add a connection, or with the form's `data-id` to renew
   * that one's grant); the server's callback comes back to `#/calendars/<id>`.
   */
  private async startOAuth(event: SubmitEvent, name?: string): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const provider = (event.submitter as HTMLButtonElement | null)?.value as CalendarOAuthProvider;
    const key = name === undefined ? "oauth" : `repair-${form.dataset.id}`;
    try {
      const { startCalendarOAuth } = await this.api.request(StartCalendarOAuthMutation, {
        provider,
        name: name ?? String(new FormData(form).get("name") ?? ""),
        connectionId: form.dataset.id ? Number(form.dataset.id) : null,
      });
      location.assign(startCalendarOAuth.authorizationUrl);
    } catch (error) {
      this.errorKey = key;
      this.errors = formErrors(error);
    }
  }

  private repair(event: SubmitEvent, connection: Connection) {
    return this.send(`repair-${connection.id}`, event, async (data) => {
      const text = (name: string) => String(data.get(name) ?? "");
      if (connection.provider === "calcom") {
        // A new API key for a connection whose key was revoked.
        await this.api.request(UpdateCalendarConnectionMutation, {
          id: connection.id,
          input: { apiKey: text("apiKey") },
        });
      } else {
        await this.api.request(UpdateCalendarConnectionMutation, {
          id: connection.id,
          input: {
            name: text("name"),
            url: text("url"),
            readUrls: lines(data.get("readUrls")),
            username: text("username"),
            // Empty keeps the stored password.
            ...(text("password") ? { password: text("password") } : {}),
          },
        });
      }
      this.repairing = null;
      this.notice = { text: `${connection.name} is saved and the provider accepted it.`, ok: true };
    });
  }

  private deleteConnection(connection: Connection, types: AppointmentType[]) {
    const also = types.length
      ? ` Its ${types.length} appointment type${types.length === 1 ? "" : "s"} will be deleted too.`
      : "";
    if (!confirm(`Delete the calendar connection “${connection.name}”?${also}`)) return;
    this.clearErrors();
    return this.act(async () => {
      await this.api.request(DeleteCalendarConnectionMutation, { id: connection.id });
      this.notice = { text: `${connection.name} is deleted.`, ok: true };
    });
  }

  private addType(event: SubmitEvent, connectionId: number) {
    return this.send("type", event, async (data) => {
      const number = (name: string) => (data.get(name) === "" ? null : Number(data.get(name)));
      const businessHours = Object.fromEntries(
        WEEKDAYS.map(([day]) => [
          day,
          this.hours[day].map((r) => ({ start: r.start, end: clockEnd(r.end) })),
        ]),
      );
      const durationMinutes = number("durationMinutes");
      // Required by the schema itself: without it GraphQL would refuse the request as a whole.
      if (durationMinutes === null)
        throw new ApiError("Some fields need attention.", "VALIDATION_FAILED", {
          durationMinutes: ["The duration is required."],
        });
      await this.api.request(CreateAppointmentTypeMutation, {
        input: {
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
          businessHours,
        },
      });
      this.addingTypeTo = null;
      this.hours = defaultHours();
    });
  }

  private deleteType(type: AppointmentType) {
    if (!confirm(`Delete the appointment type “${type.name}”? Assistants can no longer book it.`)) return;
    this.clearErrors();
    if (this.preview?.type.id === type.id) this.preview = null;
    return this.act(() => this.api.request(DeleteAppointmentTypeMutation, { id: type.id }));
  }

  private async showPreview(type: AppointmentType): Promise<void> {
    this.preview = { type, slots: null, error: null };
    const from = new Date();
    const to = new Date(from.getTime() + PREVIEW_DAYS * 86_400_000);
    try {
      const { availableSlots } = await this.api.request(AvailableSlotsQuery, {
        appointmentTypeId: type.id,
        from: from.toISOString(),
        to: to.toISOString(),
      });
      if (this.preview?.type.id === type.id) this.preview = { type, slots: availableSlots, error: null };
    } catch (error) {
      if (this.preview?.type.id === type.id)
        this.preview = { type, slots: null, error: (error as Error).message };
    }
    // Reading busy time may have found the connection broken (or working again).
    await this.load();
  }

  private setRange(day: Weekday, index: number, edge: "start" | "end", value: string): void {
    this.hours = {
      ...this.hours,
      [day]: this.hours[day].map((range, i) => (i === index ? { ...range, [edge]: value } : range)),
    };
  }

  private addRange(day: Weekday): void {
    const last = this.hours[day].at(-1);
    this.hours = {
      ...this.hours,
      [day]: [
        ...this.hours[day],
        last ? { start: last.end, end: "24:00" } : { start: "09:00", end: "17:00" },
      ],
    };
  }

  private removeRange(day: Weekday, index: number): void {
    this.hours = { ...this.hours, [day]: this.hours[day].filter((_, i) => i !== index) };
  }

  override render() {
    return html`
      <h1>Calendars</h1>
      <p class="hint">Assistants book appointments into these calendars and read them for busy time. Credentials are
        checked with the provider when saved and are never shown again.</p>
      ${this.notice ? html`<p class=${this.notice.ok ? "ok" : "error"} role=${this.notice.ok ? "status" : "alert"}>${this.notice.text}</p>` : nothing}
      ${this.errorKey === null ? formMessage(this.errors) : nothing}
      ${this.loaded((data) => this.renderConnections(data))}
      ${this.renderAdd()}
    `;
  }

  private renderConnections(data: ConsoleCalendarsScreenQuery) {
    if (data.calendarConnections.length === 0)
      return html`<p class="muted">No calendars yet: connect one below.</p>`;
    return html`<ul class="connections" aria-label="Calendar connections">${data.calendarConnections.map(
      (connection: Connection) => {
        const types = data.appointmentTypes.filter((type) => type.connectionId === connection.id);
        return html`<li class="card ${connection.status}">
          <h2 id="connection-${connection.id}">${connection.name} ${statusBadge(connection)}</h2>
          <p class="muted">${PROVIDERS[connection.provider]} · ${connectionDetail(connection)} · checked ${formatDate(connection.checkedAt)}</p>
          ${
            connection.status === "broken"
              ? html`<div class="problem" role="alert"><strong>This calendar stopped working.</strong>
                  Assistants cannot book into it until it is repaired.
                  <p>${connection.lastError ?? "The provider refused the connection."}</p></div>`
              : nothing
          }
          <p class="row">
            <button type="button" class=${connection.status === "broken" ? "primary" : ""}
              aria-expanded=${this.repairing === connection.id ? "true" : "false"}
              aria-label="${connection.status === "broken" ? "Repair" : "Edit"} ${connection.name}"
              @click=${() => {
                this.repairing = this.repairing === connection.id ? null : connection.id;
                this.clearErrors();
              }}>${connection.status === "broken" ? "Repair" : "Edit"}</button>
            <button type="button" class="danger" aria-label="Delete ${connection.name}"
              @click=${() => this.deleteConnection(connection, types)}>Delete</button>
          </p>
          ${this.repairing === connection.id ? this.renderRepair(connection) : nothing}
          <h3>Appointment types</h3>
          ${
            types.length === 0
              ? html`<p class="muted">None yet.</p>`
              : html`<div class="table-wrap"><table aria-label="Appointment types of ${connection.name}">
                  <thead><tr><th>Name</th><th class="num">Minutes</th><th>Buffers</th><th>Notice</th><th class="num">Horizon</th><th>Hours</th><th></th></tr></thead>
                  <tbody>${types.map((type) => this.renderType(type))}</tbody></table></div>`
          }
          ${
            this.preview && types.some((type) => type.id === this.preview?.type.id)
              ? this.renderPreview()
              : nothing
          }
          ${
            this.addingTypeTo === connection.id
              ? this.renderTypeForm(connection)
              : html`<p><button type="button" @click=${() => {
                  this.addingTypeTo = connection.id;
                  this.clearErrors();
                }} aria-label="Add an appointment type to ${connection.name}">Add appointment type</button></p>`
          }
        </li>`;
      },
    )}</ul>`;
  }

  private renderType(type: AppointmentType) {
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
        <button type="button" @click=${() => this.showPreview(type)} aria-label="Preview the availability of ${type.name}">Availability</button>
        <button type="button" class="danger" @click=${() => this.deleteType(type)} aria-label="Delete appointment type ${type.name}">Delete</button>
      </div></td>
    </tr>`;
  }

  private renderPreview() {
    const preview = this.preview;
    if (!preview) return nothing;
    const { type } = preview;
    return html`<section class="preview" aria-labelledby="preview-title">
      <div class="row"><h3 id="preview-title">Free slots of ${type.name}, next ${PREVIEW_DAYS} days (${type.timezone})</h3>
        <button type="button" @click=${() => {
          this.preview = null;
        }}>Close</button></div>
      ${
        preview.error
          ? html`<p class="error" role="alert">${preview.error}</p>`
          : preview.slots === null
            ? html`<p role="status">Asking the calendar…</p>`
            : preview.slots.length === 0
              ? html`<p role="status">No free slots in the next ${PREVIEW_DAYS} days.</p>`
              : html`<ul class="days" aria-label="Free slots of ${type.name}">
                  ${slotsByDay(preview.slots, type.timezone).map(([day, slots]) => daySlots(day, slots, type.timezone))}
                </ul>`
      }
    </section>`;
  }

  private renderRepair(connection: Connection) {
    const key = `repair-${connection.id}`;
    const errors = this.errorsOf(key);
    const id = (name: string) => `${key}-${name}`;
    if (connection.provider === "google" || connection.provider === "microsoft") {
      return html`<form class="repair" data-id=${connection.id} @submit=${(event: SubmitEvent) => this.startOAuth(event, connection.name)}
        aria-label="Reconnect ${connection.name}">
        <p class="hint">Sign in to ${PROVIDERS[connection.provider]} again and allow access to the calendar.</p>
        <button class="primary" type="submit" value=${connection.provider}>Reconnect ${PROVIDERS[connection.provider]}</button>
        ${formMessage(errors)}
      </form>`;
    }
    if (connection.provider === "calcom") {
      return html`<form class="repair" novalidate @submit=${(event: SubmitEvent) => this.repair(event, connection)} aria-label="Repair ${connection.name}">
        <label for=${id("apiKey")}>New Cal.com API key</label>
        <input id=${id("apiKey")} name="apiKey" type="password" autocomplete="off" required aria-describedby=${describedBy(errors, "apiKey")} />
        ${fieldError(errors, "apiKey")}
        ${formMessage(errors)}
        <p><button class="primary" type="submit">Save and check</button></p>
      </form>`;
    }
    return html`<form class="repair grid" novalidate @submit=${(event: SubmitEvent) => this.repair(event, connection)} aria-label="Repair ${connection.name}">
      <div><label for=${id("name")}>Name</label>
        <input id=${id("name")} name="name" .value=${connection.name} aria-describedby=${describedBy(errors, "name")} />${fieldError(errors, "name")}</div>
      <div><label for=${id("url")}>Calendar URL</label>
        <input id=${id("url")} name="url" type="url" .value=${connection.url} aria-describedby=${describedBy(errors, "url")} />${fieldError(errors, "url")}</div>
      <div><label for=${id("username")}>Username</label>
        <input id=${id("username")} name="username" autocomplete="off" .value=${connection.username} aria-describedby=${describedBy(errors, "username")} />${fieldError(errors, "username")}</div>
      <div><label for=${id("password")}>New password</label>
        <input id=${id("password")} name="password" type="password" autocomplete="new-password" aria-describedby="${id("password-hint")}" />
        <span class="hint" id=${id("password-hint")}>Empty keeps the stored one.</span>${fieldError(errors, "password")}</div>
      <div style="grid-column: 1 / -1"><label for=${id("readUrls")}>Further calendars to read for busy time</label>
        <textarea id=${id("readUrls")} name="readUrls" rows="2" .value=${connection.readUrls.join("\n")} aria-describedby=${describedBy(errors, "readUrls")}></textarea>
        ${fieldError(errors, "readUrls")}</div>
      <div style="grid-column: 1 / -1">${formMessage(errors)}<p><button class="primary" type="submit">Save and check</button></p></div>
    </form>`;
  }

  private renderTypeForm(connection: Connection) {
    const errors = this.errorsOf("type");
    const field = (name: string, label: string, value: string, hint?: string) =>
      html`<div><label for="type-${name}">${label}</label>
        <input id="type-${name}" name=${name} type="number" min="0" step="1" value=${value}
          aria-invalid=${errors.fields[name] ? "true" : "false"} aria-describedby=${describedBy(errors, name)} />
        ${hint ? html`<span class="hint">${hint}</span>` : nothing}${fieldError(errors, name)}</div>`;
    const hourMessages = hoursErrors(errors);
    return html`<form class="type-form" novalidate @submit=${(event: SubmitEvent) => this.addType(event, connection.id)}
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
      <fieldset aria-describedby=${hourMessages.length ? "hours-errors" : nothing}>
        <legend>Business hours</legend>
        <p class="hint">On the wall clock of the time zone above. A day without hours is closed; an end of 00:00 means midnight.</p>
        ${WEEKDAYS.map(
          ([day, name]) => html`<div class="day" role="group" aria-label=${name}>
            <span class="day-name">${name}</span>
            ${this.hours[day].length === 0 ? html`<span class="muted">Closed</span>` : nothing}
            ${this.hours[day].map(
              (range, index) => html`<span class="range">
                <label class="sr-only" for="h-${day}-${index}-start">${name} ${index + 1} from</label>
                <input id="h-${day}-${index}-start" type="time" .value=${range.start}
                  @input=${(event: Event) => this.setRange(day, index, "start", (event.target as HTMLInputElement).value)} />
                –
                <label class="sr-only" for="h-${day}-${index}-end">${name} ${index + 1} until</label>
                <input id="h-${day}-${index}-end" type="time" .value=${range.end === "24:00" ? "00:00" : range.end}
                  @input=${(event: Event) => this.setRange(day, index, "end", (event.target as HTMLInputElement).value)} />
                <button type="button" @click=${() => this.removeRange(day, index)} aria-label="Remove ${name} hours ${index + 1}">×</button>
              </span>`,
            )}
            <button type="button" @click=${() => this.addRange(day)} aria-label="Add hours on ${name}">Add hours</button>
          </div>`,
        )}
        ${hourMessages.length ? html`<p class="field-error" id="hours-errors" role="alert">${hourMessages.join(" ")}</p>` : nothing}
      </fieldset>
      ${formMessage(errors)}
      <p class="row"><button class="primary" type="submit">Create appointment type</button>
        <button type="button" @click=${() => {
          this.addingTypeTo = null;
          this.hours = defaultHours();
        }}>Cancel</button></p>
    </form>`;
  }

  private renderAdd() {
    const caldav = this.errorsOf("caldav");
    const calcom = this.errorsOf("calcom");
    const oauth = this.errorsOf("oauth");
    return html`<h2>Connect a calendar</h2>
      <div class="add">
        <form class="card" @submit=${(event: SubmitEvent) => this.startOAuth(event)} aria-labelledby="oauth-title">
          <h3 id="oauth-title">Google or Microsoft 365</h3>
          <p class="hint">You sign in with the provider and allow Voxgate to read free/busy time and write appointments.</p>
          <label for="oauth-name">Name</label>
          <input id="oauth-name" name="name" placeholder="Front desk" required aria-describedby=${describedBy(oauth, "name")} />
          ${fieldError(oauth, "name")}${formMessage(oauth)}
          <p class="row"><button class="primary" type="submit" value="google">Connect Google</button>
            <button class="primary" type="submit" value="microsoft">Connect Microsoft 365</button></p>
        </form>
        <form class="card" novalidate @submit=${this.addCaldav} aria-labelledby="caldav-title">
          <h3 id="caldav-title">CalDAV</h3>
          <p class="hint">Nextcloud, Radicale, Fastmail, iCloud (with an app password): the calendar's own URL, not the server's.</p>
          <label for="caldav-name">Name</label>
          <input id="caldav-name" name="name" aria-describedby=${describedBy(caldav, "name")} />${fieldError(caldav, "name")}
          <label for="caldav-url">Calendar URL</label>
          <input id="caldav-url" name="url" type="url" placeholder="https://cloud.example.com/remote.php/dav/calendars/desk/appointments/"
            aria-describedby=${describedBy(caldav, "url")} />${fieldError(caldav, "url")}
          <label for="caldav-username">Username</label>
          <input id="caldav-username" name="username" autocomplete="off" aria-describedby=${describedBy(caldav, "username")} />${fieldError(caldav, "username")}
          <label for="caldav-password">Password</label>
          <input id="caldav-password" name="password" type="password" autocomplete="new-password" aria-describedby=${describedBy(caldav, "password")} />${fieldError(caldav, "password")}
          <label for="caldav-read">Further calendars to read for busy time (optional)</label>
          <textarea id="caldav-read" name="readUrls" rows="2" placeholder="One URL a line" aria-describedby=${describedBy(caldav, "readUrls")}></textarea>
          ${fieldError(caldav, "readUrls")}${formMessage(caldav)}
          <p><button class="primary" type="submit">Connect CalDAV calendar</button></p>
        </form>
        <form class="card" novalidate @submit=${this.addCalcom} aria-labelledby="calcom-title">
          <h3 id="calcom-title">Cal.com</h3>
          <p class="hint">An API key from Cal.com's settings (Developer → API keys) and the event type appointments are booked as.</p>
          <label for="calcom-name">Name</label>
          <input id="calcom-name" name="name" aria-describedby=${describedBy(calcom, "name")} />${fieldError(calcom, "name")}
          <label for="calcom-key">API key</label>
          <input id="calcom-key" name="apiKey" type="password" autocomplete="off" aria-describedby=${describedBy(calcom, "apiKey")} />${fieldError(calcom, "apiKey")}
          <label for="calcom-event">Event type ID</label>
          <input id="calcom-event" name="eventTypeId" type="number" min="1" step="1" aria-describedby=${describedBy(calcom, "eventTypeId")} />${fieldError(calcom, "eventTypeId")}
          ${formMessage(calcom)}
          <p><button class="primary" type="submit">Connect Cal.com</button></p>
        </form>
      </div>`;
  }

  static override styles = [
    ...DataScreen.styles,
    css`
      .connections {
        list-style: none;
        padding: 0;
      }
      .connections h2 {
        margin-top: 0;
      }
      h3 {
        font-size: 1rem;
        margin: 1rem 0 0.5rem;
      }
      .card.broken {
        border-color: var(--_danger);
        border-width: 2px;
      }
      .badge.broken {
        color: var(--_danger);
        border-color: var(--_danger);
        font-weight: 700;
      }
      .problem {
        color: var(--_danger);
        border-left: 4px solid var(--_danger);
        padding: 0.25rem 0.75rem;
      }
      .problem p {
        margin: 0.25rem 0 0;
      }
      .url {
        overflow-wrap: anywhere;
      }
      .add {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 18rem), 1fr));
        gap: 1rem;
      }
      .day {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
        padding: 0.35rem 0;
        border-bottom: 1px solid var(--_border);
      }
      .day-name {
        flex: 0 0 6.5rem;
        font-weight: 600;
      }
      .range {
        display: inline-flex;
        gap: 0.25rem;
        align-items: center;
      }
      .range input {
        width: 7.5rem;
      }
      .days {
        padding-left: 1.25rem;
      }
      .preview {
        border-top: 1px solid var(--_border);
        margin-top: 0.5rem;
      }
    `,
  ];
}

function lines(value: FormDataEntryValue | null): string[] {
  return String(value ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

declare global {
  interface GlobalEventHandlersEventMap {
    "vx-calendars-changed": CustomEvent;
  }
}
