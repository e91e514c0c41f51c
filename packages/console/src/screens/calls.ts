import { html, nothing } from "lit";
import type { CallFilter, ConsoleCallsQuery, ConsoleCallsScreenChoicesQuery } from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import {
  DataScreen,
  describedBy,
  emptyState,
  type FormErrors,
  fieldError,
  formatDate,
  formErrors,
  formMessage,
  money,
  noErrors,
  pager,
} from "../screen.ts";
import { callStatus } from "../status-words.ts";
import {
  CallStatusSubscription,
  CallsQuery,
  CallsScreenChoicesQuery,
  SimulateInboundCallMutation,
  StartTestPhoneCallMutation,
} from "./calls.operations.ts";
import { saveFile } from "./customer-data.ts";

// The section's one chunk (screen-chunks.ts) holds the list and a call's page.
export { VxCall } from "./calls-detail.ts";

const STATUSES = [
  "initiated",
  "ringing",
  "in_progress",
  "completed",
  "ended",
  "ended_by_customer",
  "ended_by_assistant",
  "busy",
  "no_answer",
  "failed",
];

/** Rows a CSV export holds at most from the console; docs/console.md#calls. */
const EXPORT_ROWS = 10_000;

/**
 * Calls with the REST API's filters (assistant, campaign, status, type, dates, the caller's number);
 * running calls change status live. The filtered calls export as CSV (streamed by the server), and
 * two buttons start calls to try the assistants: a test phone call and a simulated inbound call.
 */
export class VxCalls extends DataScreen<ConsoleCallsQuery["calls"]> {
  static override properties = {
    ...DataScreen.properties,
    choices: { state: true },
    starting: { state: true },
    startErrors: { state: true },
    exporting: { state: true },
  };
  declare choices: ConsoleCallsScreenChoicesQuery | null;
  /** The start form open: a test phone call or a simulated inbound call. */
  declare starting: "test" | "inbound" | null;
  declare startErrors: FormErrors;
  declare exporting: boolean;
  #filter: CallFilter = {};

  constructor() {
    super();
    this.choices = null;
    this.starting = null;
    this.startErrors = noErrors;
    this.exporting = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(
      this.api.request(CallsScreenChoicesQuery, {}).then((choices) => {
        this.choices = choices;
      }),
    );
    this.track(
      this.api.subscribe(CallStatusSubscription, { callId: null }, ({ callStatusChanged }) => {
        if (!this.data) return;
        const known = this.data.items.some((c) => c.id === callStatusChanged.callId);
        if (!known) {
          if (this.page === 1) void this.load(1);
          return;
        }
        this.data = {
          ...this.data,
          items: this.data.items.map((c) =>
            c.id === callStatusChanged.callId ? { ...c, ...callStatusChanged.call } : c,
          ),
        };
      }),
    );
  }

  protected override async fetch(page: number) {
    return (await this.api.request(CallsQuery, { page, filter: this.#filter })).calls;
  }

  private applyFilter(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => (String(data.get(name) ?? "").trim() || undefined) as never;
    const id = (name: string) => (data.get(name) ? Number(data.get(name)) : undefined);
    this.#filter = {
      assistantId: id("assistantId"),
      campaignId: id("campaignId"),
      status: text("status"),
      type: text("type"),
      phoneNumber: text("phoneNumber"),
      dateFrom: text("dateFrom"),
      dateTo: text("dateTo"),
    };
    this.errors = noErrors;
    this.load(1).then(() => {
      // A refused filter (a number not in E.164, dates the wrong way round) shows under its field.
      if (this.failure?.code === "VALIDATION_FAILED") {
        this.errors = formErrors(this.failure);
        this.failure = null;
      }
    });
  }

  /** The calls the filters keep, as CSV, through the server's export (session token, row limit). */
  private async exportCsv(): Promise<void> {
    const query = new URLSearchParams({ limit: String(EXPORT_ROWS) });
    for (const [name, value] of Object.entries(this.#filter)) {
      if (value !== undefined && value !== null && value !== "") query.set(name, String(value));
    }
    this.exporting = true;
    try {
      const blob = await this.api.download(`${this.api.apiBase}/exports/calls.csv?${query}`);
      saveFile(blob, `calls-${new Date().toISOString().slice(0, 10)}.csv`);
      this.errors = noErrors;
    } catch (error) {
      this.errors = formErrors(error);
    } finally {
      this.exporting = false;
    }
  }

  private async startCall(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const value = (name: string) => String(data.get(name) ?? "").trim();
    try {
      const id =
        this.starting === "inbound"
          ? (
              await this.api.request(SimulateInboundCallMutation, {
                input: { phoneNumberId: Number(value("phoneNumberId")), from: value("from") },
              })
            ).simulateInboundCall.id
          : (
              await this.api.request(StartTestPhoneCallMutation, {
                input: { assistantId: Number(value("assistantId")), to: value("to") },
              })
            ).startCall.id;
      this.startErrors = noErrors;
      this.starting = null;
      navigate("calls", id);
    } catch (error) {
      this.startErrors = formErrors(error);
    }
  }

  private renderStart() {
    if (!this.starting) return nothing;
    const errors = this.startErrors;
    const choices = this.choices;
    if (this.starting === "inbound") {
      return html`<form class="card" @submit=${this.startCall} aria-label="Simulate an inbound call">
        <h2>Simulate an inbound call</h2>
        <p class="hint">The simulated carrier rings one of your numbers as a caller would; its inbound assistant answers
          and a simulated caller talks with it. Billed like any call.</p>
        <div class="grid">
          <div><label for="sim-number">Number that rings</label>
            <select id="sim-number" name="phoneNumberId" required aria-describedby=${describedBy(errors, "phoneNumberId")}>
              ${(choices?.phoneNumbers ?? []).map((n) => html`<option value=${n.id}>${n.phoneNumber}${n.label ? ` (${n.label})` : ""}</option>`)}
            </select>${fieldError(errors, "phoneNumberId")}</div>
          <div><label for="sim-from">Caller's number</label>
            <input id="sim-from" name="from" type="tel" required placeholder="+14155550123" aria-describedby=${describedBy(errors, "from")} />
            ${fieldError(errors, "from")}</div>
        </div>
        ${choices && choices.phoneNumbers.length === 0 ? html`<p class="muted">No phone numbers yet: <a href=${href("numbers")}>add one</a> and give it an inbound assistant.</p>` : nothing}
        <p class="row"><button type="submit" class="primary">Ring the number</button>
          <button type="button" @click=${() => this.closeStart()}>Cancel</button></p>
        ${formMessage(errors)}
      </form>`;
    }
    return html`<form class="card" @submit=${this.startCall} aria-label="Place a test call">
      <h2>Place a test call</h2>
      <p class="hint">The assistant phones the number you give from its own number. Billed by the minute like any call;
        a test in the browser with your microphone is on the assistant's page (Test call).</p>
      <div class="grid">
        <div><label for="test-assistant">Assistant</label>
          <select id="test-assistant" name="assistantId" required aria-describedby=${describedBy(errors, "assistantId")}>
            ${(choices?.assistants.items ?? []).map((a) => html`<option value=${a.id}>${a.name}</option>`)}
          </select>${fieldError(errors, "assistantId")}</div>
        <div><label for="test-to">Number to call</label>
          <input id="test-to" name="to" type="tel" required placeholder="+14155550123" aria-describedby=${describedBy(errors, "to")} />
          ${fieldError(errors, "to")}</div>
      </div>
      <p class="row"><button type="submit" class="primary">Call</button>
        <button type="button" @click=${() => this.closeStart()}>Cancel</button></p>
      ${formMessage(errors)}
    </form>`;
  }

  private closeStart(): void {
    this.starting = null;
    this.startErrors = noErrors;
  }

  private openStart(kind: "test" | "inbound"): void {
    this.starting = kind;
    this.startErrors = noErrors;
  }

  private filtered(): boolean {
    return Object.values(this.#filter).some((value) => value !== null && value !== undefined && value !== "");
  }

  override render() {
    const errors = this.errors;
    const choices = this.choices;
    return html`
      <h1>Calls</h1>
      <p class="row">
        <button type="button" @click=${() => this.openStart("test")} aria-expanded=${this.starting === "test"}>Place a test call</button>
        <button type="button" @click=${() => this.openStart("inbound")} aria-expanded=${this.starting === "inbound"}>Simulate an inbound call</button>
      </p>
      ${this.renderStart()}
      <form class="grid" @submit=${this.applyFilter} aria-label="Filter calls">
        <div><label for="assistant">Assistant</label><select id="assistant" name="assistantId"><option value="">Any</option>${(choices?.assistants.items ?? []).map((a) => html`<option value=${a.id}>${a.name}</option>`)}</select></div>
        <div><label for="campaign">Campaign</label><select id="campaign" name="campaignId"><option value="">Any</option>${(choices?.campaigns.items ?? []).map((c) => html`<option value=${c.id}>${c.name}</option>`)}</select></div>
        <div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${STATUSES.map((s) => html`<option value=${s}>${callStatus(s)}</option>`)}</select></div>
        <div><label for="type">Type</label><select id="type" name="type"><option value="">Any</option><option value="inbound">Inbound</option><option value="outbound">Outbound</option><option value="web">Web</option></select></div>
        <div><label for="phone">Customer's number</label><input id="phone" name="phoneNumber" type="tel" placeholder="+14155550123"
          aria-describedby=${describedBy(errors, "phoneNumber")} />${fieldError(errors, "phoneNumber")}</div>
        <div><label for="from">From</label><input id="from" name="dateFrom" type="date" aria-describedby=${describedBy(errors, "dateFrom")} />${fieldError(errors, "dateFrom")}</div>
        <div><label for="to">To</label><input id="to" name="dateTo" type="date" aria-describedby=${describedBy(errors, "dateTo")} />${fieldError(errors, "dateTo")}</div>
        <div class="row" style="align-self: end; margin-top: 0.75rem"><button type="submit">Filter</button>
          <button type="button" ?disabled=${this.exporting} @click=${() => void this.exportCsv()}>${this.exporting ? "Exporting…" : "Export CSV"}</button></div>
      </form>
      ${formMessage(errors)}
      <p class="hint">Export CSV saves the calls these filters keep, newest first, up to ${EXPORT_ROWS.toLocaleString("en-US")} rows.</p>
      ${this.loaded((page) =>
        page.items.length === 0 && page.pageInfo.currentPage === 1
          ? this.filtered()
            ? emptyState("No calls match these filters.", "Choose Any or other dates to see more.")
            : emptyState(
                "No calls yet.",
                html`Calls appear here, live, as they start: place a test call or simulate an inbound call above, <a href=${href("assistants")}>open an assistant</a> and make a <strong>Test call</strong> from the browser, give it a <a href=${href("numbers")}>phone number</a> to take calls, or start a <a href=${href("campaigns")}>campaign</a>.`,
              )
          : html`<div class="table-wrap"><table aria-live="polite">
              <thead><tr><th>When</th><th>Type</th><th>Status</th><th>Assistant</th><th>Customer</th><th>Duration</th><th>Cost</th></tr></thead>
              <tbody>${page.items.map(
                (
                  c,
                ) => html`<tr><td><a href=${href("calls", c.id)}>${formatDate(c.createdAt)}</a></td><td>${c.type}</td>
                  <td><span class="badge">${callStatus(c.status)}</span></td><td>${c.assistantName}</td><td>${c.clientPhoneNumber}</td>
                  <td>${c.duration}s</td><td>${money(c.totalCost)}</td></tr>`,
              )}</tbody></table></div>
            ${pager(page.pageInfo, ["call", "calls"], (next) => void this.load(next))}`,
      )}
    `;
  }
}
