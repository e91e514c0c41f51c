import { html, nothing, type ReactiveControllerHost } from "lit";
import type { ConsoleApi } from "../api/client.ts";
import { AvailableSlotsQuery } from "../api/operations.ts";
import type { ConsoleAvailableSlotsQuery } from "../generated/graphql.ts";
import { formatTime, slotsByDay } from "../zoned-format.ts";
import type { AppointmentType } from "./calendars-types.ts";

type Slot = ConsoleAvailableSlotsQuery["availableSlots"][number];
type Shown = { type: AppointmentType; slots: Slot[] | null; error: string | null };

const PREVIEW_DAYS = 7;
/** Slot times shown per day in the preview; the rest are counted. */
const PREVIEW_PER_DAY = 12;

/** One day of the preview: its first slot times, then how many more. */
function daySlots(day: string, slots: Slot[], timeZone: string) {
  const shown = slots.slice(0, PREVIEW_PER_DAY).map((slot) => formatTime(slot.start, timeZone));
  const more = slots.length - shown.length;
  return html`<li><strong>${day}</strong>: ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}</li>`;
}

/** The free slots one appointment type would offer over the next week, as the server computes them. */
export class SlotPreview {
  #shown: Shown | null = null;

  constructor(private readonly host: ReactiveControllerHost & { readonly api: ConsoleApi }) {}

  /** Whether the preview shown is of one of `types` (it is shown under their connection). */
  isOfOneOf(types: AppointmentType[]): boolean {
    return types.some((type) => type.id === this.#shown?.type.id);
  }

  /** Closes the preview if it is of `type` (about to be deleted). */
  forget(type: AppointmentType): void {
    if (this.#shown?.type.id === type.id) this.#set(null);
  }

  /** Asks the server for `type`'s slots; an answer for a type no longer shown is dropped. */
  async show(type: AppointmentType): Promise<void> {
    this.#set({ type, slots: null, error: null });
    const from = new Date();
    const to = new Date(from.getTime() + PREVIEW_DAYS * 86_400_000);
    try {
      const { availableSlots } = await this.host.api.request(AvailableSlotsQuery, {
        appointmentTypeId: type.id,
        from: from.toISOString(),
        to: to.toISOString(),
      });
      if (this.#shown?.type.id === type.id) this.#set({ type, slots: availableSlots, error: null });
    } catch (error) {
      if (this.#shown?.type.id === type.id) this.#set({ type, slots: null, error: (error as Error).message });
    }
  }

  #set(shown: Shown | null): void {
    this.#shown = shown;
    this.host.requestUpdate();
  }

  render() {
    const preview = this.#shown;
    if (!preview) return nothing;
    const { type } = preview;
    return html`<section class="preview" aria-labelledby="preview-title">
      <div class="row"><h3 id="preview-title">Free slots of ${type.name}, next ${PREVIEW_DAYS} days (${type.timezone})</h3>
        <button type="button" @click=${() => this.#set(null)}>Close</button></div>
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
}
