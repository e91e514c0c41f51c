import { html, nothing, type PropertyDeclarations } from "lit";
import type {
  ConsoleCustomerDataJobQuery,
  ConsoleErasedEventLeftFieldsFragment,
  ErasedEventLeftReason,
} from "../generated/graphql.ts";
import {
  describedBy,
  type FormErrors,
  fieldError,
  formatDate,
  formErrors,
  formMessage,
  noErrors,
  Screen,
} from "../screen.ts";
import { PROVIDERS } from "./calendars-connect.ts";
import {
  CustomerDataEventsLeftQuery,
  CustomerDataJobQuery,
  EraseCustomerDataMutation,
  ExportCustomerDataMutation,
  MarkErasedEventLeftHandledMutation,
} from "./customer-data.operations.ts";

type Job = ConsoleCustomerDataJobQuery["customerDataJob"];
type EventLeft = ConsoleErasedEventLeftFieldsFragment;

/** Why an event was left, and what the business does about it. */
function whyLeft(left: EventLeft): { why: string; todo: string } {
  const failure = left.failure ? ` (${left.failure})` : "";
  const reasons: Record<ErasedEventLeftReason, { why: string; todo: string }> = {
    PROVIDER_CANNOT_EDIT: {
      why: `${PROVIDERS[left.provider]} cannot edit its attendee`,
      todo: `Erase it in ${PROVIDERS[left.provider]}.`,
    },
    CONNECTION_DELETED: {
      why: "Its calendar connection was deleted",
      todo: "Erase it in that calendar by hand.",
    },
    CONNECTION_REFUSED: {
      why: `The calendar refused the connection${failure}`,
      todo: "Repair the connection under Calendars, then retry: run the erasure again.",
    },
    PROVIDER_FAILED: { why: `The calendar kept failing${failure}`, todo: "Retry: run the erasure again." },
  };
  return reasons[left.reason];
}
type Kind = "phoneNumber" | "email" | "customerId";

const KINDS: [kind: Kind, label: string][] = [
  ["phoneNumber", "Phone number"],
  ["email", "Email"],
  ["customerId", "Customer id"],
];

/** How often a running job is asked for its progress. */
const POLL_MS = 1500;

/**
 * Saves `blob` as a file named `name`, through a link to it: the way a page hands a file it fetched
 * (with the session token) to the browser's downloads.
 */
export function saveFile(blob: Blob, name: string): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the browser reads the file after the click returns.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/**
 * "Export or erase a customer" (docs/data-governance.md#erasure-and-export): starts the job, follows
 * its progress, then offers the archive or shows what was erased. Erasure asks for the identifier again.
 */
export class VxCustomerData extends Screen {
  static override properties: PropertyDeclarations = {
    kind: { state: true },
    job: { state: true },
    errors: { state: true },
    confirming: { state: true },
    confirmation: { state: true },
    eventsLeft: { state: true },
  };
  declare kind: Kind;
  declare job: Job | null;
  /** A finished erasure's calendar events left, once read. */
  declare eventsLeft: EventLeft[] | null;
  declare errors: FormErrors;
  /** The identifier an erasure waits to be confirmed for, or null. */
  declare confirming: { input: Record<string, string>; identifier: string } | null;
  declare confirmation: string;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.kind = "phoneNumber";
    this.job = null;
    this.eventsLeft = null;
    this.errors = noErrors;
    this.confirming = null;
    this.confirmation = "";
    this.track(() => clearTimeout(this.#timer));
  }

  private input(form: HTMLFormElement): Record<string, string> {
    const data = new FormData(form);
    const identifier = String(data.get(this.kind) ?? "").trim();
    const country = String(data.get("country") ?? "").trim();
    return {
      [this.kind]: identifier,
      ...(this.kind === "phoneNumber" && country ? { country } : {}),
    };
  }

  private async start(
    action: (input: Record<string, string>) => Promise<Job>,
    input: Record<string, string>,
  ): Promise<void> {
    clearTimeout(this.#timer);
    try {
      this.job = await action(input);
      this.eventsLeft = null;
      this.errors = noErrors;
      this.follow();
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private follow(): void {
    if (this.job?.kind === "erase" && this.job.state === "done") void this.loadEventsLeft(this.job.id);
    if (!this.job || (this.job.state !== "pending" && this.job.state !== "running")) return;
    const id = this.job.id;
    this.#timer = setTimeout(async () => {
      try {
        const { customerDataJob } = await this.api.request(CustomerDataJobQuery, { id });
        if (this.job?.id !== id) return;
        this.job = customerDataJob;
      } catch (error) {
        this.errors = formErrors(error);
      }
      this.follow();
    }, POLL_MS);
  }

  private async loadEventsLeft(id: number): Promise<void> {
    try {
      const { customerDataJob } = await this.api.request(CustomerDataEventsLeftQuery, { id });
      if (this.job?.id === id) this.eventsLeft = customerDataJob.externalEventsLeftDetails ?? [];
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private async markHandled(left: EventLeft): Promise<void> {
    try {
      const { markErasedEventLeftHandled } = await this.api.request(MarkErasedEventLeftHandledMutation, {
        id: left.id,
      });
      this.eventsLeft = (this.eventsLeft ?? []).map((row) =>
        row.id === left.id ? markErasedEventLeftHandled : row,
      );
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  /** Each event left with why, what to do, and whether it was done. */
  private eventsLeftTable() {
    const rows = this.eventsLeft;
    if (!rows || rows.length === 0) return nothing;
    return html`<div class="table-wrap"><table aria-label="Calendar events left">
      <thead><tr><th>Calendar</th><th>Starts</th><th>Why it was left</th><th>What to do</th><th></th></tr></thead>
      <tbody>
        ${rows.map((left) => {
          const { why, todo } = whyLeft(left);
          return html`<tr>
            <td>${PROVIDERS[left.provider]}</td>
            <td>${formatDate(left.startsAt)}</td>
            <td>${why}</td>
            <td>${todo}</td>
            <td>${
              left.handledAt
                ? `Marked erased by hand on ${formatDate(left.handledAt)}`
                : left.retriedByJobId
                  ? `Tried again by erasure ${left.retriedByJobId}`
                  : html`<button type="button" @click=${() => this.markHandled(left)}
                      aria-label="Mark the event of appointment ${left.appointmentId} erased">Mark erased</button>`
            }</td>
          </tr>`;
        })}
      </tbody>
    </table></div>`;
  }

  private exportData(event: SubmitEvent): void {
    event.preventDefault();
    this.confirming = null;
    void this.start(
      async (input) => (await this.api.request(ExportCustomerDataMutation, { input })).exportCustomerData,
      this.input(event.target as HTMLFormElement),
    );
  }

  private askErase(event: Event): void {
    const form = (event.target as HTMLButtonElement).form!;
    const input = this.input(form);
    const identifier = input[this.kind] ?? "";
    if (!identifier) {
      this.errors = { fields: { [this.kind]: ["Enter the customer to erase."] }, message: null };
      return;
    }
    this.errors = noErrors;
    this.confirmation = "";
    this.confirming = { input, identifier };
  }

  private erase(event: SubmitEvent): void {
    event.preventDefault();
    const confirming = this.confirming;
    if (!confirming || this.confirmation.trim() !== confirming.identifier) return;
    this.confirming = null;
    void this.start(
      async (input) => (await this.api.request(EraseCustomerDataMutation, { input })).eraseCustomerData,
      confirming.input,
    );
  }

  private async download(job: Job): Promise<void> {
    try {
      // From the server the console talks to (its api-base), which may be reached at another address
      // than the public one the URL names.
      const url = `${this.api.apiBase}${new URL(job.downloadUrl!).pathname}`;
      saveFile(await this.api.download(url), `customer-data-${job.id}.zip`);
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private status(job: Job) {
    const what = job.kind === "export" ? "Export" : "Erasure";
    const all = (job.counts ?? {}) as Record<string, number>;
    // Events left in the business's calendars were not erased: said apart, with what to do.
    const counts = Object.entries(all).filter(([kind, count]) => count > 0 && kind !== "externalEventsLeft");
    const left = all.externalEventsLeft ?? 0;
    if (job.state === "failed") {
      return html`<p class="error" role="alert">${what} ${job.id} failed${job.error ? `: ${job.error}` : "."}</p>`;
    }
    if (job.state !== "done") {
      return html`<p>${what} ${job.id} ${job.state === "pending" ? "is waiting to start" : "is running"}:
          ${job.stepsDone} of ${job.stepsTotal || "?"} steps done.</p>
        <progress aria-label="${what} progress" max=${job.stepsTotal || 1} value=${job.stepsDone}></progress>`;
    }
    return html`<p>${what} ${job.id} is done${job.kind === "erase" ? "; a tombstone keeps the customer from being added or called again" : ""}.</p>
      ${
        counts.length === 0
          ? html`<p class="muted">Nothing was found for this customer.</p>`
          : html`<ul aria-label="${job.kind === "erase" ? "Erased" : "Exported"} records">
              ${counts.map(([kind, count]) => html`<li>${kind}: ${count}</li>`)}
            </ul>`
      }
      ${
        left > 0
          ? html`<p class="hint" role="status">${left} calendar ${left === 1 ? "event" : "events"} still
              ${left === 1 ? "holds" : "hold"} the customer's details (Cal.com bookings, or calendars that refused
              or did not answer): below, why and what to do.</p>
            ${this.eventsLeftTable()}`
          : nothing
      }
      ${
        job.kind === "export" && job.downloadUrl
          ? html`<p><button class="primary" type="button" @click=${() => this.download(job)}>Download archive</button>
              <span class="hint">Available until ${new Date(job.expiresAt!).toLocaleString()}.</span></p>`
          : nothing
      }`;
  }

  override render() {
    const label = KINDS.find(([kind]) => kind === this.kind)![1];
    return html`<form class="card" @submit=${this.exportData} novalidate aria-label="Export or erase a customer">
      <h3>Export or erase a customer</h3>
      <p class="hint">Everything tied to one customer across calls, leads, conversations, messages, recordings,
        appointments and texts: export it as a zip, or erase it for good (charges are kept).</p>
      <div class="grid">
        <div>
          <label for="customer-kind">Identify the customer by</label>
          <select id="customer-kind" @change=${(event: Event) => {
            this.kind = (event.target as HTMLSelectElement).value as Kind;
            this.confirming = null;
          }}>
            ${KINDS.map(([kind, text]) => html`<option value=${kind} ?selected=${kind === this.kind}>${text}</option>`)}
          </select>
        </div>
        <div>
          <label for="customer-identifier">${label}</label>
          <input id="customer-identifier" name=${this.kind} autocomplete="off"
            type=${this.kind === "phoneNumber" ? "tel" : this.kind === "email" ? "email" : "text"}
            aria-describedby=${describedBy(this.errors, this.kind)} />
          ${fieldError(this.errors, this.kind)}
        </div>
        ${
          this.kind === "phoneNumber"
            ? html`<div>
                <label for="customer-country">Country (optional)</label>
                <input id="customer-country" name="country" maxlength="2" placeholder="US" autocomplete="off"
                  aria-describedby=${describedBy(this.errors, "country")} />
                ${fieldError(this.errors, "country")}
              </div>`
            : nothing
        }
      </div>
      ${formMessage(this.errors)}
      <p class="row">
        <button class="primary" type="submit">Export</button>
        <button class="danger" type="button" @click=${this.askErase}>Erase…</button>
      </p>
    </form>
    ${
      this.confirming
        ? html`<form class="card" @submit=${this.erase} aria-label="Confirm erasure">
            <p role="alert"><strong>Erasure is irreversible.</strong> Everything tied to
              <strong>${this.confirming.identifier}</strong> will be deleted or anonymised.</p>
            <label for="customer-confirm">Type the identifier again to confirm</label>
            <input id="customer-confirm" autocomplete="off" .value=${this.confirmation}
              @input=${(event: Event) => {
                this.confirmation = (event.target as HTMLInputElement).value;
              }} />
            <p class="row">
              <button class="danger" type="submit" ?disabled=${this.confirmation.trim() !== this.confirming.identifier}>
                Erase permanently</button>
              <button type="button" @click=${() => {
                this.confirming = null;
              }}>Cancel</button>
            </p>
          </form>`
        : nothing
    }
    <div role="status" aria-live="polite">${this.job ? this.status(this.job) : nothing}</div>`;
  }
}
