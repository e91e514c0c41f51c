import { html, nothing } from "lit";
import type { CalendarOAuthProvider, ConsoleCalendarsScreenQuery } from "../generated/graphql.ts";
import { DataScreen, type FormErrors, formatDate, formErrors, formMessage, noErrors } from "../screen.ts";
import {
  CalendarsScreenQuery,
  CreateAppointmentTypeMutation,
  CreateCalendarConnectionMutation,
  DeleteAppointmentTypeMutation,
  DeleteCalendarConnectionMutation,
  StartCalendarOAuthMutation,
  UpdateCalendarConnectionMutation,
} from "./calendars.operations.ts";
import { calendarsStyles } from "./calendars.styles.ts";
import {
  type Connection,
  calcomInput,
  caldavInput,
  connectionDetail,
  PROVIDERS,
  renderConnectForms,
  renderRepairForm,
  repairInput,
  statusBadge,
} from "./calendars-connect.ts";
import { BusinessHoursEditor } from "./calendars-hours.ts";
import { SlotPreview } from "./calendars-preview.ts";
import {
  type AppointmentType,
  appointmentTypeInput,
  renderTypeForm,
  renderTypeRow,
} from "./calendars-types.ts";

/**
 * The account's calendar connections (CalDAV, Cal.com, Google, Microsoft 365) and the appointment types
 * booked into them: add, repair a broken one, delete; define types with their business hours and see
 * the slots they would offer. The forms are drawn by calendars-connect.ts (connections) and
 * calendars-types.ts (appointment types, with the hours editor of calendars-hours.ts); the slot preview
 * is calendars-preview.ts.
 */
export class VxCalendars extends DataScreen<ConsoleCalendarsScreenQuery> {
  static override properties = {
    connectionId: { attribute: false },
    notice: { state: true },
    errorKey: { state: true },
    repairing: { state: true },
    addingTypeTo: { state: true },
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
  readonly #hours = new BusinessHoursEditor(this);
  readonly #preview = new SlotPreview(this);

  constructor() {
    super();
    this.connectionId = null;
    this.notice = null;
    this.errorKey = null;
    this.repairing = null;
    this.addingTypeTo = null;
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
      await this.api.request(CreateCalendarConnectionMutation, { input: caldavInput(data) });
      this.notice = { text: "The calendar is connected.", ok: true };
    });
  }

  private addCalcom(event: SubmitEvent) {
    return this.send("calcom", event, async (data) => {
      await this.api.request(CreateCalendarConnectionMutation, { input: calcomInput(data) });
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
      await this.api.request(UpdateCalendarConnectionMutation, {
        id: connection.id,
        input: repairInput(connection, data),
      });
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
      await this.api.request(CreateAppointmentTypeMutation, {
        input: appointmentTypeInput(data, connectionId, this.#hours),
      });
      this.addingTypeTo = null;
      this.#hours.reset();
    });
  }

  private deleteType(type: AppointmentType) {
    if (!confirm(`Delete the appointment type “${type.name}”? Assistants can no longer book it.`)) return;
    this.clearErrors();
    this.#preview.forget(type);
    return this.act(() => this.api.request(DeleteAppointmentTypeMutation, { id: type.id }));
  }

  private async showPreview(type: AppointmentType): Promise<void> {
    await this.#preview.show(type);
    // Reading busy time may have found the connection broken (or working again).
    await this.load();
  }

  override render() {
    return html`
      <h1>Calendars</h1>
      <p class="hint">Assistants book appointments into these calendars and read them for busy time. Credentials are
        checked with the provider when saved and are never shown again.</p>
      ${this.notice ? html`<p class=${this.notice.ok ? "ok" : "error"} role=${this.notice.ok ? "status" : "alert"}>${this.notice.text}</p>` : nothing}
      ${this.errorKey === null ? formMessage(this.errors) : nothing}
      ${this.loaded((data) => this.renderConnections(data))}
      ${renderConnectForms((form) => this.errorsOf(form), {
        startOAuth: (event) => this.startOAuth(event),
        addCaldav: (event) => this.addCaldav(event),
        addCalcom: (event) => this.addCalcom(event),
      })}
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
          ${
            this.repairing === connection.id
              ? renderRepairForm(connection, this.errorsOf(`repair-${connection.id}`), {
                  startOAuth: (event, name) => this.startOAuth(event, name),
                  repair: (event) => this.repair(event, connection),
                })
              : nothing
          }
          <h3>Appointment types</h3>
          ${
            types.length === 0
              ? html`<p class="muted">None yet.</p>`
              : html`<div class="table-wrap"><table aria-label="Appointment types of ${connection.name}">
                  <thead><tr><th>Name</th><th class="num">Minutes</th><th>Buffers</th><th>Notice</th><th class="num">Horizon</th><th>Hours</th><th></th></tr></thead>
                  <tbody>${types.map((type) =>
                    renderTypeRow(type, {
                      preview: (shown) => this.showPreview(shown),
                      remove: (removed) => this.deleteType(removed),
                    }),
                  )}</tbody></table></div>`
          }
          ${this.#preview.isOfOneOf(types) ? this.#preview.render() : nothing}
          ${
            this.addingTypeTo === connection.id
              ? renderTypeForm(connection, this.errorsOf("type"), this.#hours, {
                  submit: (event) => this.addType(event, connection.id),
                  cancel: () => {
                    this.addingTypeTo = null;
                    this.#hours.reset();
                  },
                })
              : html`<p><button type="button" @click=${() => {
                  this.addingTypeTo = connection.id;
                  this.clearErrors();
                }} aria-label="Add an appointment type to ${connection.name}">Add appointment type</button></p>`
          }
        </li>`;
      },
    )}</ul>`;
  }

  static override styles = [...DataScreen.styles, calendarsStyles];
}

declare global {
  interface GlobalEventHandlersEventMap {
    "vx-calendars-changed": CustomEvent;
  }
}
