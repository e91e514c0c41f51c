import { html, nothing, type ReactiveControllerHost } from "lit";
import type { BusinessHoursInput } from "../generated/graphql.ts";
import type { FormErrors } from "../screen.ts";

export const WEEKDAYS = [
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

/**
 * The business hours of the appointment type being defined: opening ranges per weekday, edited in
 * place (time controls are not form fields of their own) and sent with the form.
 */
export class BusinessHoursEditor {
  #hours: Hours = defaultHours();

  constructor(private readonly host: ReactiveControllerHost) {}

  /** Back to a working week, for the next appointment type. */
  reset(): void {
    this.#hours = defaultHours();
    this.host.requestUpdate();
  }

  /** The hours as the API takes them. */
  toInput(): BusinessHoursInput {
    return Object.fromEntries(
      WEEKDAYS.map(([day]) => [day, this.#hours[day].map((r) => ({ start: r.start, end: clockEnd(r.end) }))]),
    );
  }

  private setRange(day: Weekday, index: number, edge: "start" | "end", value: string): void {
    this.#hours = {
      ...this.#hours,
      [day]: this.#hours[day].map((range, i) => (i === index ? { ...range, [edge]: value } : range)),
    };
    this.host.requestUpdate();
  }

  private addRange(day: Weekday): void {
    const last = this.#hours[day].at(-1);
    this.#hours = {
      ...this.#hours,
      [day]: [
        ...this.#hours[day],
        last ? { start: last.end, end: "24:00" } : { start: "09:00", end: "17:00" },
      ],
    };
    this.host.requestUpdate();
  }

  private removeRange(day: Weekday, index: number): void {
    this.#hours = { ...this.#hours, [day]: this.#hours[day].filter((_, i) => i !== index) };
    this.host.requestUpdate();
  }

  /** The week's fieldset, with the server's messages about any of its ranges. */
  render(errors: FormErrors) {
    const hourMessages = hoursErrors(errors);
    return html`<fieldset aria-describedby=${hourMessages.length ? "hours-errors" : nothing}>
        <legend>Business hours</legend>
        <p class="hint">On the wall clock of the time zone above. A day without hours is closed; an end of 00:00 means midnight.</p>
        ${WEEKDAYS.map(
          ([day, name]) => html`<div class="day" role="group" aria-label=${name}>
            <span class="day-name">${name}</span>
            ${this.#hours[day].length === 0 ? html`<span class="muted">Closed</span>` : nothing}
            ${this.#hours[day].map(
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
      </fieldset>`;
  }
}
