import { html, nothing } from "lit";
import { CallQuery, CallStatusSubscription, CallsQuery } from "../api/operations.ts";
import type { CallFilter, ConsoleCallQuery, ConsoleCallsQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { formatDate, Screen } from "../screen.ts";

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
export class VxCalls extends Screen {
  static override properties = { page: { state: true }, error: { state: true } };
  declare page: ConsoleCallsQuery["calls"] | null;
  declare error: string | null;
  #filter: CallFilter = {};

  constructor() {
    super();
    this.page = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load(1));
    this.track(
      this.api.subscribe(CallStatusSubscription, { callId: null }, ({ callStatusChanged }) => {
        if (!this.page) return;
        const known = this.page.items.some((c) => c.id === callStatusChanged.callId);
        if (!known) {
          if (this.page.pageInfo.currentPage === 1) this.run(this.load(1));
          return;
        }
        this.page = {
          ...this.page,
          items: this.page.items.map((c) =>
            c.id === callStatusChanged.callId ? { ...c, ...callStatusChanged.call } : c,
          ),
        };
      }),
    );
  }

  private async load(page: number): Promise<void> {
    try {
      this.page = (await this.api.request(CallsQuery, { page, filter: this.#filter })).calls;
      this.error = null;
    } catch (error) {
      this.error = (error as Error).message;
    }
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
    this.run(this.load(1));
  }

  override render() {
    const page = this.page;
    return html`
      <h1>Calls</h1>
      <form class="grid" @submit=${this.applyFilter} aria-label="Filter calls">
        <div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${STATUSES.map((s) => html`<option>${s}</option>`)}</select></div>
        <div><label for="type">Type</label><select id="type" name="type"><option value="">Any</option><option>inbound</option><option>outbound</option><option>web</option></select></div>
        <div><label for="phone">Phone number</label><input id="phone" name="phoneNumber" /></div>
        <div><label for="from">From</label><input id="from" name="dateFrom" type="date" /></div>
        <div><label for="to">To</label><input id="to" name="dateTo" type="date" /></div>
        <div style="align-self: end"><button type="submit">Filter</button></div>
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        !page
          ? html`<p role="status">Loading…</p>`
          : html`<div class="table-wrap"><table aria-live="polite">
              <thead><tr><th>When</th><th>Type</th><th>Status</th><th>Assistant</th><th>Customer</th><th>Duration</th><th>Cost</th></tr></thead>
              <tbody>${page.items.map(
                (
                  c,
                ) => html`<tr><td><a href=${href("calls", c.id)}>${formatDate(c.createdAt)}</a></td><td>${c.type}</td>
                  <td><span class="badge">${c.status}</span></td><td>${c.assistantName}</td><td>${c.clientPhoneNumber}</td>
                  <td>${c.duration}s</td><td>${c.totalCost}</td></tr>`,
              )}</tbody></table></div>
            <p class="row muted">${page.pageInfo.total} call(s) · page ${page.pageInfo.currentPage} of ${page.pageInfo.lastPage}
              <button ?disabled=${page.pageInfo.currentPage <= 1} @click=${() => this.load(page.pageInfo.currentPage - 1)}>Previous</button>
              <button ?disabled=${page.pageInfo.currentPage >= page.pageInfo.lastPage} @click=${() => this.load(page.pageInfo.currentPage + 1)}>Next</button></p>`
      }
    `;
  }
}

/** One call: status (live), transcript, evaluation, webhook response and recording. */
export class VxCall extends Screen {
  static override properties = {
    callId: { attribute: false },
    call: { state: true },
    error: { state: true },
  };
  declare callId: number;
  declare call: ConsoleCallQuery["call"] | null;
  declare error: string | null;

  constructor() {
    super();
    this.call = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load());
    this.track(
      this.api.subscribe(CallStatusSubscription, { callId: this.callId }, () => this.run(this.load())),
    );
  }

  private async load(): Promise<void> {
    try {
      this.call = (await this.api.request(CallQuery, { id: this.callId })).call;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  override render() {
    const c = this.call;
    if (!c)
      return this.error
        ? html`<p class="error" role="alert">${this.error}</p>`
        : html`<p role="status">Loading…</p>`;
    return html`
      <p><a href=${href("calls")}>← Calls</a></p>
      <h1>Call ${c.id} <span class="badge" aria-live="polite">${c.status}</span></h1>
      <dl class="grid">
        <div><dt class="muted">Assistant</dt><dd>${c.assistantName}</dd></div>
        <div><dt class="muted">Customer</dt><dd>${c.clientPhoneNumber}</dd></div>
        <div><dt class="muted">From</dt><dd>${c.assistantPhoneNumber || "—"}</dd></div>
        <div><dt class="muted">Campaign</dt><dd>${c.campaignName || "—"}</dd></div>
        <div><dt class="muted">Started</dt><dd>${formatDate(c.startedAt)}</dd></div>
        <div><dt class="muted">Ended</dt><dd>${formatDate(c.endedAt)}</dd></div>
        <div><dt class="muted">Duration</dt><dd>${c.duration}s</dd></div>
        <div><dt class="muted">Cost</dt><dd>${c.totalCost}</dd></div>
        ${c.endReason ? html`<div><dt class="muted">End reason</dt><dd>${c.endReason}</dd></div>` : nothing}
        ${c.answeredBy ? html`<div><dt class="muted">Answered by</dt><dd>${c.answeredBy}</dd></div>` : nothing}
      </dl>
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
