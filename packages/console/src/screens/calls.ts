import { html, nothing } from "lit";
import {
  CallQuery,
  CallStatusSubscription,
  CallsQuery,
  CallTranscriptSubscription,
  TakeOverCallMutation,
} from "../api/operations.ts";
import type { CallFilter, ConsoleCallQuery, ConsoleCallsQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
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

/** Calls with the REST API's filters; running calls change status live. */
export class VxCalls extends DataScreen<ConsoleCallsQuery["calls"]> {
  #filter: CallFilter = {};

  override connectedCallback(): void {
    super.connectedCallback();
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
    const text = (name: string) => (String(data.get(name) ?? "") || undefined) as never;
    this.#filter = {
      status: text("status"),
      type: text("type"),
      phoneNumber: text("phoneNumber"),
      dateFrom: text("dateFrom"),
      dateTo: text("dateTo"),
    };
    void this.load(1);
  }

  override render() {
    return html`
      <h1>Calls</h1>
      <form class="grid" @submit=${this.applyFilter} aria-label="Filter calls">
        <div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${STATUSES.map((s) => html`<option value=${s}>${callStatus(s)}</option>`)}</select></div>
        <div><label for="type">Type</label><select id="type" name="type"><option value="">Any</option><option>inbound</option><option>outbound</option><option>web</option></select></div>
        <div><label for="phone">Phone number</label><input id="phone" name="phoneNumber" /></div>
        <div><label for="from">From</label><input id="from" name="dateFrom" type="date" /></div>
        <div><label for="to">To</label><input id="to" name="dateTo" type="date" /></div>
        <div style="align-self: end"><button type="submit">Filter</button></div>
      </form>
      ${this.loaded((page) =>
        page.items.length === 0 && page.pageInfo.currentPage === 1
          ? Object.values(this.#filter).some((value) => value !== null && value !== undefined && value !== "")
            ? emptyState("No calls match these filters.", "Choose Any or other dates to see more.")
            : emptyState(
                "No calls yet.",
                html`Calls appear here, live, as they start: <a href=${href("assistants")}>open an assistant</a> and place a <strong>Test call</strong>, give it a <a href=${href("numbers")}>phone number</a> to take calls, or start a <a href=${href("campaigns")}>campaign</a>.`,
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

/**
 * One call: status (live), transcript, evaluation, webhook response and recording. While the call
 * is in progress, the operator may listen to it live, with its transcript turn by turn beside, and
 * take a phone call over: a warm transfer to their own phone (docs/transfers.md#take-over).
 */
export class VxCall extends DataScreen<ConsoleCallQuery["call"]> {
  static override properties = {
    callId: { attribute: false },
    liveTurns: { state: true },
    takeOverErrors: { state: true },
    takeOverRinging: { state: true },
  };
  declare callId: number;
  declare liveTurns: { id: number; speaker: string; text: string }[];
  declare takeOverErrors: FormErrors;
  /** The operator's phone a take-over rings, once asked. */
  declare takeOverRinging: string | null;

  constructor() {
    super();
    this.liveTurns = [];
    this.takeOverErrors = noErrors;
    this.takeOverRinging = null;
  }

  private async takeOver(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const phoneNumber = String(new FormData(event.target as HTMLFormElement).get("phoneNumber") ?? "").trim();
    try {
      const { takeOverCall } = await this.api.request(TakeOverCallMutation, {
        callId: this.callId,
        phoneNumber,
      });
      this.takeOverErrors = noErrors;
      this.takeOverRinging = takeOverCall.clientPhoneNumber;
    } catch (error) {
      this.takeOverErrors = formErrors(error);
    }
  }

  private renderTakeOver(c: ConsoleCallQuery["call"]) {
    if (c.type === "web") return nothing;
    const errors = this.takeOverErrors;
    return html`
      <form @submit=${this.takeOver} aria-label="Take over the call">
        <h2>Take over</h2>
        <p class="muted">Your phone rings with a briefing; accept and the caller is put through to you.</p>
        <label for="take-over-phone">Your phone number</label>
        <input id="take-over-phone" name="phoneNumber" type="tel" required placeholder="+4930901820"
          aria-describedby=${describedBy(errors, "phoneNumber")} />
        ${fieldError(errors, "phoneNumber")}
        <button type="submit">Take over</button>
        ${formMessage(errors)}
        ${this.takeOverRinging ? html`<p role="status">Calling ${this.takeOverRinging}: the caller is on hold until you accept.</p>` : nothing}
      </form>
    `;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.track(this.api.subscribe(CallStatusSubscription, { callId: this.callId }, () => void this.load()));
    this.track(
      this.api.subscribe(CallTranscriptSubscription, { callId: this.callId }, ({ callTranscript }) => {
        this.liveTurns = [...this.liveTurns, callTranscript];
      }),
    );
  }

  private renderLive(c: ConsoleCallQuery["call"]) {
    if (c.status !== "in_progress") return nothing;
    return html`
      <section class="grid" aria-label="Live call">
        <div>
          <h2>Live audio</h2>
          <vx-live-listen .callId=${c.id} .api=${this.api}></vx-live-listen>
          ${this.renderTakeOver(c)}
        </div>
        <div>
          <h2>Live transcript</h2>
          <ol aria-label="Live transcript" aria-live="polite">
            ${this.liveTurns.map((turn) => html`<li><strong>${turn.speaker === "assistant" ? "Assistant" : "Customer"}:</strong> ${turn.text}</li>`)}
          </ol>
        </div>
      </section>
    `;
  }

  protected override async fetch() {
    return (await this.api.request(CallQuery, { id: this.callId })).call;
  }

  override render() {
    return this.loaded((c) => this.renderCall(c));
  }

  private renderCall(c: ConsoleCallQuery["call"]) {
    return html`
      <p><a href=${href("calls")}>← Calls</a></p>
      <h1>Call ${c.id} <span class="badge" aria-live="polite">${callStatus(c.status)}</span></h1>
      ${c.assistantId !== null && c.transcript ? html`<vx-make-test .callId=${c.id}></vx-make-test>` : nothing}
      <dl class="grid">
        <div><dt class="muted">Assistant</dt><dd>${c.assistantName}</dd></div>
        <div><dt class="muted">Customer</dt><dd>${c.clientPhoneNumber}</dd></div>
        <div><dt class="muted">From</dt><dd>${c.assistantPhoneNumber || "—"}</dd></div>
        <div><dt class="muted">Campaign</dt><dd>${c.campaignName || "—"}</dd></div>
        <div><dt class="muted">Started</dt><dd>${formatDate(c.startedAt)}</dd></div>
        <div><dt class="muted">Ended</dt><dd>${formatDate(c.endedAt)}</dd></div>
        <div><dt class="muted">Duration</dt><dd>${c.duration}s</dd></div>
        <div><dt class="muted">Cost</dt><dd>${money(c.totalCost)}</dd></div>
        ${c.endReason ? html`<div><dt class="muted">End reason</dt><dd>${c.endReason}</dd></div>` : nothing}
        ${c.answeredBy ? html`<div><dt class="muted">Answered by</dt><dd>${c.answeredBy}</dd></div>` : nothing}
        ${
          c.handoffCount > 0 && c.activeAssistantId !== null
            ? html`<div><dt class="muted">Hand-offs</dt><dd>${c.handoffCount}, now answering:
                <a href=${href("assistants", c.activeAssistantId)}>assistant ${c.activeAssistantId}</a></dd></div>`
            : nothing
        }
      </dl>
      ${this.renderLive(c)}
      <h2>Recording</h2>
      ${c.recordingUrl ? html`<audio controls preload="none" src=${c.recordingUrl}></audio>` : html`<p class="muted">No recording.</p>`}
      <h2>Transcript</h2>
      ${c.transcript ? html`<pre>${c.transcript}</pre>` : html`<p class="muted">No transcript.</p>`}
      <h2>Evaluation</h2>
      <pre>${JSON.stringify(c.evaluation, null, 2)}</pre>
      <h2>Webhook response</h2>
      <pre>${JSON.stringify(c.webhookResponse, null, 2)}</pre>
    `;
  }
}
