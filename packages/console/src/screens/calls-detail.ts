import { html, nothing } from "lit";
import type { ConsoleCallQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import {
  DataScreen,
  describedBy,
  type FormErrors,
  fieldError,
  formatDate,
  formErrors,
  formMessage,
  money,
  noErrors,
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
  CallTranscriptSubscription,
  TakeOverCallMutation,
} from "./calls.operations.ts";

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
  /** Whether the operator has moved the player to a turn: from then on, position 0 is a turn's. */
  #seekedToTurn = false;

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
    this.#seekedToTurn = false;
  }

  // An `ended` queued just before a pick arrives after it: the player is then no longer at its end.
  readonly #onEnded = (): void => {
    if (this.player?.ended) this.playingId = null;
  };

  private get player(): HTMLAudioElement | null {
    return this.renderRoot.querySelector("audio");
  }

  private followPlayer(turns: readonly ReviewedTurn[]): void {
    const player = this.player;
    if (!player) return;
    // Before the operator plays or picks a turn, a player at 0 marks nothing. After a pick, the player may
    // still be paused at the picked turn (0 for the first) until play() starts.
    this.playingId =
      player.paused && player.currentTime === 0 && !this.#seekedToTurn
        ? null
        : (turnAt(turns, player.currentTime * 1000)?.id ?? null);
  }

  private seek(turn: ReviewedTurn): void {
    const player = this.player;
    if (!player) return;
    player.currentTime = turn.startMs / 1000;
    this.#seekedToTurn = true;
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
      @timeupdate=${follow} @seeked=${follow} @ended=${this.#onEnded}></audio>`;
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
