import { html, nothing } from "lit";
import type {
  CallFilter,
  ConsoleCallQuery,
  ConsoleCallsQuery,
  ConsoleCallsScreenChoicesQuery,
} from "../generated/graphql.ts";
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
  callReviewStyles,
  type ReviewedTurn,
  renderFields,
  renderTranscript,
  turnAt,
} from "./call-review.ts";
import {
  CallQuery,
  CallStatusSubscription,
  CallsQuery,
  CallsScreenChoicesQuery,
  CallTranscriptSubscription,
  SimulateInboundCallMutation,
  StartTestPhoneCallMutation,
  TakeOverCallMutation,
} from "./calls.operations.ts";
import { saveFile } from "./customer-data.ts";

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
/** How often, and how many times, a finished call's page looks again for its recording being stored. */
const RECORDING_POLL_MS = 2_000;
const RECORDING_POLLS = 30;
/** What the page says in place of the player, by `recordingStatus`. */
const RECORDING_WORDS: Record<string, string> = {
  recording: "Being recorded: it can be played here once the call has ended and the recording is stored.",
  failed: "The recording failed: nothing was stored.",
  expired: "The recording was removed by the retention policy.",
};

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

/**
 * One call, to review as a person would: its facts, the recording, and the transcript as a chat with
 * each answer's latency waterfall, interruptions and function calls; the recording highlights the
 * turn it plays and a turn's time plays from there. Evaluation and webhook response read as fields.
 * While the call is in progress, the operator may listen to it live, with its transcript turn by turn
 * beside, and take a phone call over: a warm transfer to their own phone (docs/transfers.md#take-over).
 */
export class VxCall extends DataScreen<ConsoleCallQuery["call"]> {
  static override styles = [...DataScreen.styles, callReviewStyles];
  static override properties = {
    ...DataScreen.properties,
    callId: { attribute: false },
    liveTurns: { state: true },
    takeOverErrors: { state: true },
    takeOverRinging: { state: true },
    recording: { state: true },
    playingId: { state: true },
  };
  declare callId: number;
  declare liveTurns: { id: number; speaker: string; text: string }[];
  declare takeOverErrors: FormErrors;
  /** The operator's phone a take-over rings, once asked. */
  declare takeOverRinging: string | null;
  /**
   * The recording, fetched with the session token (a plain `src` could not carry it) as an object
   * URL; or why it could not be.
   */
  declare recording: { url: string } | { failed: string } | null;
  /** The turn the recording is playing. */
  declare playingId: number | null;
  #recordingOf: string | null = null;
  #recordingPoll: ReturnType<typeof setTimeout> | null = null;
  #recordingPolls = 0;

  constructor() {
    super();
    this.liveTurns = [];
    this.takeOverErrors = noErrors;
    this.takeOverRinging = null;
    this.recording = null;
    this.playingId = null;
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
    // The current status comes first: a change between the page's first read and the subscription's
    // start is read again, not missed.
    this.track(
      this.api.subscribe(
        CallStatusSubscription,
        { callId: this.callId, includeCurrent: true },
        () => void this.load(),
      ),
    );
    this.track(
      this.api.subscribe(CallTranscriptSubscription, { callId: this.callId }, ({ callTranscript }) => {
        this.liveTurns = [...this.liveTurns, callTranscript];
        // The chat below fills in as the call goes, each answer with its waterfall.
        void this.load();
      }),
    );
    this.track(() => this.dropRecording());
    this.track(() => {
      if (this.#recordingPoll) clearTimeout(this.#recordingPoll);
    });
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
    const call = (await this.api.request(CallQuery, { id: this.callId })).call;
    if (call.recordingUrl !== this.#recordingOf) void this.loadRecording(call.recordingUrl);
    this.awaitStoredRecording(call);
    return call;
  }

  /**
   * A recording is stored once its media stream has closed, which may be after the call's last event (a
   * carrier reports the end first): nothing else would tell this page, so it reads the call again every
   * `RECORDING_POLL_MS` while a finished call's recording is still being stored, `RECORDING_POLLS` times.
   */
  private awaitStoredRecording(call: ConsoleCallQuery["call"]): void {
    if (this.#recordingPoll) clearTimeout(this.#recordingPoll);
    this.#recordingPoll = null;
    if (
      call.recordingStatus !== "recording" ||
      call.endedAt === null ||
      this.#recordingPolls >= RECORDING_POLLS
    )
      return;
    this.#recordingPolls++;
    this.#recordingPoll = setTimeout(() => void this.load(), RECORDING_POLL_MS);
  }

  /**
   * The recording is served under the server's public address (`PUBLIC_BASE_URL`); the console asks
   * its own API origin for the same path, which is that server.
   */
  private async loadRecording(recordingUrl: string): Promise<void> {
    this.#recordingOf = recordingUrl;
    this.dropRecording();
    if (!recordingUrl) return;
    try {
      const blob = await this.api.download(`${this.api.apiBase}${new URL(recordingUrl).pathname}`);
      if (this.#recordingOf === recordingUrl) this.recording = { url: URL.createObjectURL(blob) };
    } catch (error) {
      if (this.#recordingOf === recordingUrl)
        this.recording = { failed: error instanceof Error ? error.message : String(error) };
    }
  }

  private dropRecording(): void {
    if (this.recording && "url" in this.recording) URL.revokeObjectURL(this.recording.url);
    this.recording = null;
  }

  private get player(): HTMLAudioElement | null {
    return this.renderRoot.querySelector("audio");
  }

  private followPlayer(turns: readonly ReviewedTurn[]): void {
    const player = this.player;
    if (!player) return;
    this.playingId =
      player.paused && player.currentTime === 0
        ? null
        : (turnAt(turns, player.currentTime * 1000)?.id ?? null);
  }

  private seek(turn: ReviewedTurn): void {
    const player = this.player;
    if (!player) return;
    player.currentTime = turn.startMs / 1000;
    this.playingId = turn.id;
    void player.play().catch(() => {
      // Autoplay refused or no audio output: the position is set, the operator presses play.
    });
  }

  override render() {
    return this.loaded((c) => this.renderCall(c));
  }

  private renderRecording(c: ConsoleCallQuery["call"]) {
    if (!c.recordingUrl)
      return html`<p class="muted" role="status">${RECORDING_WORDS[c.recordingStatus] ?? "No recording."}</p>`;
    if (!this.recording) return html`<p class="muted" role="status">Loading the recording…</p>`;
    if ("failed" in this.recording)
      return html`<p class="error" role="alert">The recording could not be loaded: ${this.recording.failed}</p>`;
    const follow = () => this.followPlayer(c.turns);
    return html`<audio controls preload="metadata" src=${this.recording.url} aria-label="Call recording"
      @timeupdate=${follow} @seeked=${follow} @ended=${() => (this.playingId = null)}></audio>`;
  }

  private renderCall(c: ConsoleCallQuery["call"]) {
    const hasPlayer = !!this.recording && "url" in this.recording;
    return html`
      <p><a href=${href("calls")}>← Calls</a></p>
      <h1>Call ${c.id} <span class="badge" aria-live="polite">${callStatus(c.status)}</span></h1>
      ${c.assistantId !== null && c.transcript ? html`<vx-make-test .callId=${c.id}></vx-make-test>` : nothing}
      <dl class="grid">
        <div><dt class="muted">Assistant</dt><dd>${c.assistantName}</dd></div>
        <div><dt class="muted">Customer</dt><dd>${c.clientPhoneNumber || "—"}</dd></div>
        <div><dt class="muted">From</dt><dd>${c.assistantPhoneNumber || "—"}</dd></div>
        <div><dt class="muted">Campaign</dt><dd>${c.campaignName || "—"}</dd></div>
        <div><dt class="muted">Started</dt><dd>${formatDate(c.startedAt)}</dd></div>
        <div><dt class="muted">Ended</dt><dd>${formatDate(c.endedAt)}</dd></div>
        <div><dt class="muted">Duration</dt><dd>${c.duration}s</dd></div>
        <div><dt class="muted">Cost</dt><dd>${money(c.totalCost)}</dd></div>
        ${
          c.latency.firstAudioP50Ms !== null
            ? html`<div><dt class="muted">Answer latency</dt><dd>median ${c.latency.firstAudioP50Ms} ms, p95 ${c.latency.firstAudioP95Ms} ms over ${c.latency.turns} ${c.latency.turns === 1 ? "answer" : "answers"}</dd></div>`
            : nothing
        }
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
      ${this.renderRecording(c)}
      <h2>Transcript</h2>
      ${
        c.turns.length > 0
          ? renderTranscript(c.turns, {
              playingId: this.playingId,
              seek: hasPlayer ? (turn) => this.seek(turn) : null,
            })
          : c.transcript
            ? html`<pre>${c.transcript}</pre>`
            : html`<p class="muted">No transcript.</p>`
      }
      <h2>Evaluation</h2>
      ${renderFields(c.evaluation, "Not evaluated.")}
      <h2>Webhook response</h2>
      ${renderFields(c.webhookResponse, "No response recorded from your webhook endpoint.")}
    `;
  }
}
