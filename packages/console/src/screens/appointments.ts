import { css, html, nothing } from "lit";
import { AssistantNamesQuery, AvailableSlotsQuery } from "../api/operations.ts";
import type {
  AppointmentFilter,
  AppointmentStatus,
  ConsoleAppointmentFieldsFragment,
  ConsoleAppointmentsQuery,
  ConsoleAssistantNamesQuery,
  ConsoleAvailableSlotsQuery,
} from "../generated/graphql.ts";
import { href } from "../router.ts";
import { DataScreen, formErrors, formMessage, noErrors, pager } from "../screen.ts";
import { appointmentStatus } from "../status-words.ts";
import { formatInZone, formatTime, slotsByDay } from "../zoned-format.ts";
import {
  AppointmentsQuery,
  CancelAppointmentMutation,
  RescheduleAppointmentMutation,
} from "./appointments.operations.ts";

type Appointment = ConsoleAppointmentFieldsFragment;
type Slot = ConsoleAvailableSlotsQuery["availableSlots"][number];

/** Days of free slots offered per step when moving an appointment. */
const RESCHEDULE_DAYS = 7;

/** Midnight starting `date` (YYYY-MM-DD) on the browser's clock, as the filters' dates are picked there. */
function startOfDay(date: string, plusDays = 0): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, day + plusDays).toISOString();
}

/**
 * Appointments the assistants booked, with their status, in each appointment's own time zone; cancel
 * one, or move it to another free slot of its type.
 */
export class VxAppointments extends DataScreen<ConsoleAppointmentsQuery["appointments"]> {
  static override properties = {
    assistants: { state: true },
    notice: { state: true },
    moving: { state: true },
  };
  declare assistants: ConsoleAssistantNamesQuery["assistants"]["items"] | null;
  declare notice: string | null;
  /** The appointment being moved, the window of slots shown (from, days after now) and the slots. */
  declare moving: {
    appointment: Appointment;
    offset: number;
    slots: Slot[] | null;
    error: string | null;
  } | null;
  #filter: AppointmentFilter = {
    status: "booked",
    from: new Date().toISOString(),
  };

  constructor() {
    super();
    this.assistants = null;
    this.notice = null;
    this.moving = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(
      this.api.request(AssistantNamesQuery).then(({ assistants }) => {
        this.assistants = assistants.items;
      }),
    );
  }

  protected override async fetch(page: number) {
    return (await this.api.request(AppointmentsQuery, { page, filter: this.#filter })).appointments;
  }

  private applyFilter(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(data.get(name) ?? "");
    this.#filter = {
      status: (text("status") || null) as AppointmentStatus | null,
      assistantId: text("assistantId") ? Number(text("assistantId")) : null,
      from: text("from") ? startOfDay(text("from")) : null,
      // Through the whole of the last day picked.
      to: text("to") ? startOfDay(text("to"), 1) : null,
    };
    void this.load(1);
  }

  private cancel(appointment: Appointment) {
    const when = formatInZone(appointment.startsAt, appointment.timezone);
    if (
      !confirm(
        `Cancel ${appointment.customerName}'s ${appointment.appointmentTypeName} on ${when}? It is removed from the calendar.`,
      )
    )
      return;
    return this.act(async () => {
      await this.api.request(CancelAppointmentMutation, { id: appointment.id });
      this.notice = `${appointment.customerName}'s appointment on ${when} is cancelled.`;
      if (this.moving?.appointment.id === appointment.id) this.moving = null;
    });
  }

  private async showSlots(appointment: Appointment, offset: number): Promise<void> {
    this.errors = noErrors;
    this.moving = { appointment, offset, slots: null, error: null };
    const from = new Date(Date.now() + offset * 86_400_000);
    const to = new Date(from.getTime() + RESCHEDULE_DAYS * 86_400_000);
    try {
      const { availableSlots } = await this.api.request(AvailableSlotsQuery, {
        appointmentTypeId: appointment.appointmentTypeId,
        from: from.toISOString(),
        to: to.toISOString(),
      });
      if (this.moving?.appointment.id === appointment.id && this.moving.offset === offset)
        this.moving = { ...this.moving, slots: availableSlots };
    } catch (error) {
      if (this.moving?.appointment.id === appointment.id)
        this.moving = { ...this.moving, error: (error as Error).message };
    }
  }

  private async reschedule(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const moving = this.moving;
    const startsAt = String(new FormData(event.target as HTMLFormElement).get("slot") ?? "");
    if (!moving || !startsAt) return;
    try {
      const { rescheduleAppointment } = await this.api.request(RescheduleAppointmentMutation, {
        id: moving.appointment.id,
        startsAt,
      });
      this.notice = `${rescheduleAppointment.customerName}'s appointment is moved to ${formatInZone(
        rescheduleAppointment.startsAt,
        rescheduleAppointment.timezone,
      )}.`;
      this.moving = null;
      this.errors = noErrors;
      await this.load();
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  override render() {
    const filter = this.#filter;
    const day = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString("sv") : "");
    return html`
      <h1>Appointments</h1>
      <form class="grid" @submit=${this.applyFilter} aria-label="Filter appointments">
        <div><label for="status">Status</label>
          <select id="status" name="status">
            <option value="" ?selected=${!filter.status}>Any</option>
            <option value="booked" ?selected=${filter.status === "booked"}>${appointmentStatus("booked")}</option>
            <option value="cancelled" ?selected=${filter.status === "cancelled"}>${appointmentStatus("cancelled")}</option>
          </select></div>
        <div><label for="assistant">Assistant</label>
          <select id="assistant" name="assistantId">
            <option value="">Any</option>
            ${(this.assistants ?? []).map((a) => html`<option value=${a.id} ?selected=${filter.assistantId === a.id}>${a.name}</option>`)}
          </select></div>
        <div><label for="from">From</label><input id="from" name="from" type="date" .value=${day(filter.from)} /></div>
        <div><label for="to">To</label><input id="to" name="to" type="date" /></div>
        <div style="align-self: end"><button type="submit">Filter</button></div>
      </form>
      ${this.notice ? html`<p class="ok" role="status">${this.notice}</p>` : nothing}
      ${this.moving ? nothing : formMessage(this.errors)}
      ${this.loaded((page) =>
        page.items.length === 0
          ? html`<p class="muted">No appointments match.</p>`
          : html`<div class="table-wrap"><table aria-label="Appointments">
              <thead><tr><th>When (local)</th><th>Customer</th><th>Type</th><th>Status</th><th>Source</th><th></th></tr></thead>
              <tbody>${page.items.map((a) => this.renderRow(a))}</tbody></table></div>
            ${this.moving ? this.renderMove(this.moving) : nothing}
            ${pager(page.pageInfo, ["appointment", "appointments"], (next) => void this.load(next))}`,
      )}
    `;
  }

  private renderRow(a: Appointment) {
    const assistant = this.assistants?.find((item) => item.id === a.assistantId);
    return html`<tr>
      <td>${formatInZone(a.startsAt, a.timezone)}<br /><span class="muted">until ${formatTime(a.endsAt, a.timezone)} · ${a.timezone}</span></td>
      <td>${a.customerName}
        ${a.customerPhone ? html`<br /><span class="muted">${a.customerPhone}</span>` : nothing}
        ${a.customerEmail ? html`<br /><span class="muted">${a.customerEmail}</span>` : nothing}
        ${a.notes ? html`<br /><span class="muted">“${a.notes}”</span>` : nothing}</td>
      <td>${a.appointmentTypeName}</td>
      <td><span class="badge">${appointmentStatus(a.status)}</span></td>
      <td>${
        a.callId !== null
          ? html`<a href=${href("calls", a.callId)}>Call ${a.callId}</a>`
          : a.conversationId !== null
            ? html`<a href=${href("inbox", a.conversationId)}>Conversation</a>`
            : "API"
      }${assistant ? html`<br /><span class="muted">${assistant.name}</span>` : nothing}</td>
      <td>${
        a.status === "booked"
          ? html`<div class="row">
              <button type="button" @click=${() => this.showSlots(a, 0)}
                aria-label="Reschedule ${a.customerName}'s appointment">Reschedule</button>
              <button type="button" class="danger" @click=${() => this.cancel(a)}
                aria-label="Cancel ${a.customerName}'s appointment">Cancel</button></div>`
          : nothing
      }</td>
    </tr>`;
  }

  private renderMove(moving: NonNullable<VxAppointments["moving"]>) {
    const { appointment, offset } = moving;
    const zone = appointment.timezone;
    return html`<form class="card move" @submit=${this.reschedule} aria-labelledby="move-title">
      <h2 id="move-title">Move ${appointment.customerName}'s appointment</h2>
      <p class="muted">Now ${formatInZone(appointment.startsAt, zone)}. Free slots of ${appointment.appointmentTypeName}
        ${offset === 0 ? "in the next" : `from ${offset} days ahead, for`} ${RESCHEDULE_DAYS} days, in ${zone}:</p>
      ${
        moving.error
          ? html`<p class="error" role="alert">${moving.error}</p>`
          : moving.slots === null
            ? html`<p role="status">Asking the calendar…</p>`
            : moving.slots.length === 0
              ? html`<p role="status">No free slots in these days.</p>`
              : html`<fieldset><legend>New time</legend>${slotsByDay(moving.slots, zone).map(
                  ([
                    day,
                    slots,
                  ]) => html`<div class="day" role="group" aria-label=${day}><strong>${day}</strong>
                    ${slots.map(
                      (
                        slot,
                      ) => html`<label class="inline slot"><input type="radio" name="slot" value=${slot.start} required />
                        ${formatTime(slot.start, zone)}</label>`,
                    )}</div>`,
                )}</fieldset>`
      }
      ${formMessage(this.errors)}
      <p class="row">
        <button class="primary" type="submit" ?disabled=${!moving.slots?.length}>Move appointment</button>
        ${offset > 0 ? html`<button type="button" @click=${() => this.showSlots(appointment, offset - RESCHEDULE_DAYS)}>Earlier days</button>` : nothing}
        <button type="button" @click=${() => this.showSlots(appointment, offset + RESCHEDULE_DAYS)}>Later days</button>
        <button type="button" @click=${() => {
          this.moving = null;
          this.errors = noErrors;
        }}>Close</button>
      </p>
    </form>`;
  }

  static override styles = [
    ...DataScreen.styles,
    css`
      .move {
        margin-top: 1rem;
      }
      .day {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 0.75rem;
        align-items: center;
        padding: 0.35rem 0;
      }
      .day strong {
        flex: 0 0 7rem;
      }
      .slot {
        margin: 0;
        white-space: nowrap;
      }
    `,
  ];
}
