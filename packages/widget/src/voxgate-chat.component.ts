import { html, LitElement, nothing, type PropertyValues } from "lit";
import { classMap } from "lit/directives/class-map.js";
import { live } from "lit/directives/live.js";
import { styleMap } from "lit/directives/style-map.js";
import {
  type AssistantProfile,
  asApiError,
  isPermanent,
  type MessageRole,
  WidgetApi,
  type WidgetApiError,
  type WidgetErrorKind,
  type WidgetPosition,
  type WidgetTheme,
} from "./api-client.ts";
import { readableTextOn, validHexColor } from "./color.ts";
import { CountdownController } from "./countdown.controller.ts";
import { emit } from "./events.ts";
import { renderMarkdown } from "./markdown.ts";
import { OperatorMessagesController } from "./operator-messages.controller.ts";
import { SessionStore } from "./session-store.ts";
import { defaultStrings, format, type VoxgateChatStrings } from "./strings.ts";
import { voxgateChatStyles } from "./voxgate-chat.styles.ts";
import { WebCallController } from "./web-call.controller.ts";

/** The server refuses longer messages; the widget says so before sending. */
export const MAX_MESSAGE_LENGTH = 2000;

interface ChatEntry {
  key: string;
  role: MessageRole;
  content: string;
  state: "sent" | "sending" | "failed";
  /** Said on a web call (its live transcript), not written. */
  spoken?: boolean;
}

interface ShownError {
  kind: WidgetErrorKind;
  text: string;
  retryLabel: string;
  retry: (() => void) | null;
  /** While a rate limit lasts, the retry button waits until this time (ms since epoch). */
  retryAt: number | null;
}

type Phase = "idle" | "loading" | "ready" | "unavailable";

const stringsConverter = {
  fromAttribute(value: string | null): Partial<VoxgateChatStrings> {
    if (!value) return {};
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === "object" && parsed !== null) return parsed as Partial<VoxgateChatStrings>;
    } catch {
      // Reported below; English stays in place rather than breaking the page.
    }
    console.warn("<voxgate-chat>: the strings attribute must be a JSON object; using the defaults.");
    return {};
  },
};

let entryCounter = 0;
const nextKey = () => `entry-${++entryCounter}`;

const chatIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true">
  <path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z" />
</svg>`;
const phoneIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true">
  <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z" />
</svg>`;
const closeIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true">
  <path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z" />
</svg>`;

/**
 * A chat with a Voxgate assistant: a launcher bubble in a corner of the page that opens a chat panel.
 *
 * @summary Embeddable chat with a Voxgate assistant.
 *
 * @event voxgate-open - The panel opened. `detail: { byUser }` (false when restored after a reload).
 * @event voxgate-close - The panel closed. `detail: { byUser }`.
 * @event voxgate-message-sent - The server accepted the visitor's message. `detail: { conversationId, message }`.
 * @event voxgate-message-received - The assistant replied. `detail: { conversationId, message, functionCalls }`.
 * @event voxgate-error - Something failed; the visitor sees a kind explanation. `detail: { kind, status, message }`.
 * @event voxgate-call-start - The visitor's web call is live. `detail: { callId }`.
 * @event voxgate-call-end - The web call ended. `detail: { callId, status }` (the call's final status, or null if the connection dropped).
 *
 * @csspart launcher - The round button that opens and closes the panel.
 * @csspart panel - The chat panel (a non-modal dialog).
 * @csspart header - The panel's top bar.
 * @csspart title - The panel title.
 * @csspart close-button - The close button in the header.
 * @csspart call-button - The call / hang-up button in the header (when the assistant takes web calls).
 * @csspart call-status - The line under the header saying where the call stands.
 * @csspart messages - The scrolling list of messages (an ARIA live log).
 * @csspart message - Every message bubble; also `message-user`, `message-assistant` or `message-operator`, and `message-spoken` for what was said on a call.
 * @csspart typing - The typing indicator.
 * @csspart error - The error notice.
 * @csspart retry-button - The notice's retry button.
 * @csspart form - The message form.
 * @csspart input - The message text area.
 * @csspart counter - The character counter.
 * @csspart send-button - The send button.
 *
 * @cssproperty --voxgate-accent-color - Launcher, header and visitor bubbles; defaults to the assistant's colour.
 * @cssproperty --voxgate-accent-text-color - Text on the accent colour; defaults to black or white, whichever reads better.
 * @cssproperty --voxgate-background - Panel background.
 * @cssproperty --voxgate-surface - Assistant bubbles and typing indicator.
 * @cssproperty --voxgate-text-color - Main text.
 * @cssproperty --voxgate-muted-color - Secondary text.
 * @cssproperty --voxgate-border-color - Borders.
 * @cssproperty --voxgate-danger-color - Errors and the over-limit counter.
 * @cssproperty --voxgate-font-family - Font of the whole widget.
 * @cssproperty --voxgate-font-size - Base font size.
 * @cssproperty --voxgate-radius - Panel corner radius.
 * @cssproperty --voxgate-offset - Distance from the page corner.
 * @cssproperty --voxgate-panel-width - Panel width on wide screens.
 * @cssproperty --voxgate-panel-height - Panel height on wide screens.
 * @cssproperty --voxgate-z-index - Stacking order above the page.
 */
export class VoxgateChat extends LitElement {
  static override styles = voxgateChatStyles;

  /** Where the embed script sets its own server, so that `api-base` may be left out. */
  static defaultApiBase: string | null = null;

  static override properties = {
    assistant: { type: String },
    apiBase: { type: String, attribute: "api-base" },
    chatTitle: { type: String, attribute: "chat-title" },
    initialMessage: { type: String, attribute: "initial-message" },
    theme: { type: String },
    color: { type: String },
    position: { type: String },
    open: { type: Boolean, reflect: true },
    strings: { attribute: "strings", converter: stringsConverter },
    phase: { state: true },
    profile: { state: true },
    entries: { state: true },
    historyLoading: { state: true },
    waiting: { state: true },
    draft: { state: true },
    error: { state: true },
  };

  /** The assistant's uuid. */
  declare assistant: string | undefined;
  /** Base URL of the Voxgate server, e.g. `https://voxgate.example.com`. The embed script defaults it to its own server. */
  declare apiBase: string | undefined;
  /** Panel title; defaults to the assistant's name. */
  declare chatTitle: string | undefined;
  /** First message shown in the panel; defaults to the assistant's initial message. */
  declare initialMessage: string | undefined;
  /** `light`, `dark` or `auto` (follows the visitor's system); defaults to the assistant's widget settings. */
  declare theme: WidgetTheme | undefined;
  /** Accent colour as `#rgb` or `#rrggbb`; defaults to the assistant's widget settings. */
  declare color: string | undefined;
  /** `bottom-right` or `bottom-left`; defaults to the assistant's widget settings. */
  declare position: WidgetPosition | undefined;
  /** Whether the panel is open. */
  declare open: boolean;
  /** Translations of the UI texts; missing keys stay English. As an attribute: a JSON object. */
  declare strings: Partial<VoxgateChatStrings>;

  declare private phase: Phase;
  declare private profile: AssistantProfile | null;
  declare private entries: ChatEntry[];
  declare private historyLoading: boolean;
  declare private waiting: boolean;
  declare private draft: string;
  declare private error: ShownError | null;

  private api: WidgetApi | null = null;
  private store: SessionStore | null = null;
  private conversationId: string | null = null;
  private historyLoaded = false;
  /** Loads started for an older assistant/api-base pair are ignored when they finish. */
  private loadGeneration = 0;
  private toggledByUser = false;
  /** Counts a rate limit's wait down on the retry button. */
  private readonly countdown = new CountdownController(this);
  private readonly operatorMessages = new OperatorMessagesController(
    this,
    () => ({ api: this.api, id: this.conversationId, visible: this.open && this.phase === "ready" }),
    (content) => this.addEntry({ key: nextKey(), role: "operator", content, state: "sent" }),
  );
  private readonly voice = new WebCallController(this, {
    target: () => {
      const apiBase = this.effectiveApiBase;
      return this.api && this.assistant && apiBase
        ? { api: this.api, assistant: this.assistant, apiBase }
        : null;
    },
    starting: () => this.dismissError(),
    said: (role, content) => this.addEntry({ key: nextKey(), role, content, state: "sent", spoken: true }),
    failed: (error, retry) => this.showError(error, retry),
  });

  constructor() {
    super();
    this.open = false;
    this.strings = {};
    this.phase = "idle";
    this.profile = null;
    this.entries = [];
    this.historyLoading = false;
    this.waiting = false;
    this.draft = "";
    this.error = null;
  }

  /** Opens the panel and moves focus into it. */
  show(): void {
    this.toggledByUser = true;
    this.open = true;
  }

  /**
   * Opens the panel and starts a web call, as the call button does (nothing when the assistant has
   * voice off or a call is already running): for a page's own "call us" button, or the console's
   * test call.
   */
  callAssistant(): Promise<void> {
    this.show();
    return this.profile?.widget_settings.voice ? this.voice.start() : Promise.resolve();
  }

  /** Ends the running web call, as the hang-up button does; nothing when no call runs. */
  hangUp(): void {
    this.voice.hangUp();
  }

  /** Closes the panel and returns focus to the launcher. */
  hide(): void {
    this.toggledByUser = true;
    this.open = false;
  }

  private get text(): VoxgateChatStrings {
    return { ...defaultStrings, ...this.strings };
  }

  private get effectiveApiBase(): string | undefined {
    return this.apiBase || VoxgateChat.defaultApiBase || undefined;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has("assistant") || changed.has("apiBase")) void this.load();
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has("open") && changed.get("open") !== undefined) this.afterToggle();
    if (changed.has("entries") || changed.has("waiting") || changed.has("open")) {
      const log = this.renderRoot.querySelector(".messages");
      if (log) log.scrollTop = log.scrollHeight;
    }
  }

  private async load(): Promise<void> {
    const generation = ++this.loadGeneration;
    const apiBase = this.effectiveApiBase;
    this.entries = [];
    this.operatorMessages.forget();
    this.error = null;
    this.historyLoaded = false;
    if (!this.assistant || !apiBase) {
      this.phase = "idle";
      return;
    }
    this.phase = "loading";
    this.api = new WidgetApi(apiBase);
    this.store = new SessionStore(apiBase, this.assistant);
    const session = this.store.read();
    this.conversationId = session.conversationId;
    try {
      this.profile = await this.api.fetchAssistant(this.assistant);
    } catch (failure) {
      if (generation !== this.loadGeneration) return;
      const error = asApiError(failure);
      if (error.kind === "assistant-not-found") {
        // A deleted or mistyped assistant must not leave a dead bubble on someone's website.
        this.phase = "unavailable";
        console.warn(`<voxgate-chat>: assistant ${this.assistant} was not found at ${apiBase}.`);
        this.report(error);
        return;
      }
      this.phase = "ready";
      this.showError(error, () => void this.load());
      return;
    }
    if (generation !== this.loadGeneration) return;
    this.phase = "ready";
    if (session.open && !this.open) this.open = true;
    else if (this.open) void this.loadHistory();
  }

  private afterToggle(): void {
    const byUser = this.toggledByUser;
    this.toggledByUser = false;
    this.store?.write({ conversationId: this.conversationId, open: this.open });
    if (this.open) {
      emit(this, "voxgate-open", { byUser });
      void this.loadHistory();
      // Focus moves only when the visitor asked; a panel restored on page load must not steal it.
      if (byUser) this.renderRoot.querySelector<HTMLTextAreaElement>(".input")?.focus();
    } else {
      emit(this, "voxgate-close", { byUser });
      if (byUser) this.renderRoot.querySelector<HTMLButtonElement>(".launcher")?.focus();
    }
  }

  private async loadHistory(): Promise<void> {
    const api = this.api;
    const conversationId = this.conversationId;
    if (!api || !conversationId || this.historyLoaded || this.historyLoading) return;
    this.historyLoading = true;
    try {
      const history = await api.fetchHistory(conversationId);
      if (conversationId !== this.conversationId) return;
      this.historyLoaded = true;
      const greeting = this.greeting;
      const shown = history.messages.filter((message, index) => {
        if (!["user", "assistant", "operator"].includes(message.role)) return false;
        // Already shown by the live stream, which can be quicker than the history.
        if (message.role === "operator" && !this.operatorMessages.claim(message.id)) return false;
        // The server may store the greeting as the first message; the widget already shows it.
        return !(index === 0 && message.role === "assistant" && message.content === greeting);
      });
      this.entries = [
        ...shown.map(
          (message): ChatEntry => ({
            key: nextKey(),
            role: message.role,
            content: message.content,
            state: "sent",
          }),
        ),
        ...this.entries,
      ];
    } catch (failure) {
      const error = asApiError(failure);
      if (error.kind === "conversation-gone") {
        // The stored conversation was deleted: the visitor simply starts afresh.
        this.forgetConversation();
        this.historyLoaded = true;
        return;
      }
      this.showError(error, () => void this.loadHistory());
    } finally {
      this.historyLoading = false;
    }
  }

  private forgetConversation(): void {
    this.conversationId = null;
    this.store?.write({ conversationId: null, open: this.open });
  }

  private get greeting(): string {
    return this.initialMessage ?? this.profile?.initial_message ?? "";
  }

  private send(): void {
    const message = this.draft.trim();
    if (!message || message.length > MAX_MESSAGE_LENGTH || this.waiting) return;
    const entry: ChatEntry = { key: nextKey(), role: "user", content: message, state: "sending" };
    this.draft = "";
    this.addEntry(entry);
    void this.deliver(entry);
  }

  private async deliver(entry: ChatEntry): Promise<void> {
    const api = this.api;
    const assistant = this.assistant;
    if (!api || !assistant) return;
    this.dismissError();
    this.setEntryState(entry, "sending");
    this.waiting = true;
    try {
      if (!this.conversationId) {
        // Conversations start with the first message, so page views alone create nothing on the server.
        const started = await api.startConversation(assistant);
        this.conversationId = started.conversation_id;
        this.historyLoaded = true;
        this.store?.write({ conversationId: this.conversationId, open: this.open });
      }
      const conversationId = this.conversationId;
      const reply = await api.sendMessage(conversationId, entry.content);
      this.setEntryState(entry, "sent");
      emit(this, "voxgate-message-sent", { conversationId, message: entry.content });
      if (reply.message) {
        this.addEntry({ key: nextKey(), role: "assistant", content: reply.message, state: "sent" });
        emit(this, "voxgate-message-received", {
          conversationId,
          message: reply.message,
          functionCalls: reply.function_calls ?? [],
        });
      }
    } catch (failure) {
      const error = asApiError(failure);
      if (error.kind === "invalid-message") {
        // The visitor can fix the text: it goes back into the box instead of lingering as "not sent".
        this.entries = this.entries.filter((candidate) => candidate !== entry);
        this.draft = entry.content;
        this.showError(error, null);
        return;
      }
      this.setEntryState(entry, "failed");
      if (error.kind === "conversation-gone") {
        this.forgetConversation();
      }
      this.showError(error, isPermanent(error.kind) ? null : () => void this.deliver(entry));
    } finally {
      this.waiting = false;
    }
  }

  private setEntryState(entry: ChatEntry, state: ChatEntry["state"]): void {
    entry.state = state;
    this.entries = [...this.entries];
  }

  private addEntry(entry: ChatEntry): void {
    this.entries = [...this.entries, entry];
  }

  private dismissError(): void {
    this.error = null;
    this.countdown.stop();
  }

  private showError(error: WidgetApiError, retry: (() => void) | null): void {
    const text = this.text;
    const retryAt =
      (error.kind === "rate-limited" || error.kind === "at-capacity") && error.retryAfterSeconds !== null
        ? Date.now() + error.retryAfterSeconds * 1000
        : null;
    this.error = {
      kind: error.kind,
      text: errorText(error.kind, text),
      retryLabel: error.kind === "conversation-gone" ? text.startNewConversation : text.retryButton,
      retry,
      retryAt,
    };
    if (retryAt !== null) this.countdown.start(retryAt);
    this.report(error);
  }

  private report(error: WidgetApiError): void {
    emit(this, "voxgate-error", { kind: error.kind, status: error.status, message: error.message });
  }

  private onLauncherClick(): void {
    this.toggledByUser = true;
    this.open = !this.open;
  }

  private onPanelKeydown(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      event.stopPropagation();
      this.hide();
    }
  }

  private onInputKeydown(event: KeyboardEvent): void {
    // Enter sends, Shift+Enter starts a new line; Enter that confirms an IME composition does neither.
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    }
  }

  private onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.send();
  }

  protected override render() {
    if (this.phase === "idle" || this.phase === "loading" || this.phase === "unavailable") return nothing;
    const text = this.text;
    const settings = this.profile?.widget_settings;
    const theme = normaliseTheme(this.theme ?? settings?.theme);
    const position = normalisePosition(this.position ?? settings?.position);
    const accent = validHexColor(this.color) ?? validHexColor(settings?.color);
    const accentVariables = accent
      ? { "--_accent-setting": accent, "--_on-accent-setting": readableTextOn(accent) }
      : {};
    const title = this.chatTitle || this.profile?.name || text.defaultTitle;

    return html`<div
      class=${classMap({ root: true, [theme]: true, [position]: true, open: this.open })}
      style=${styleMap(accentVariables)}
    >
      <section
        id="panel"
        class="panel"
        part="panel"
        role="dialog"
        aria-modal="false"
        aria-labelledby="title"
        ?hidden=${!this.open}
        @keydown=${this.onPanelKeydown}
      >
        <header class="header" part="header">
          <h2 id="title" class="title" part="title">${title}</h2>
          ${this.renderCallButton(text)}
          <button
            type="button"
            class="close-button"
            part="close-button"
            aria-label=${text.closeButton}
            @click=${this.hide}
          >
            ×
          </button>
        </header>
        ${this.renderCallStatus(text)} ${this.renderMessages(text)} ${this.renderError(text)}
        ${this.renderForm(text)}
      </section>
      <button
        type="button"
        class="launcher"
        part="launcher"
        aria-label=${this.open ? text.closeChat : text.openChat}
        aria-expanded=${this.open ? "true" : "false"}
        aria-controls="panel"
        @click=${this.onLauncherClick}
      >
        ${this.open ? closeIcon : chatIcon}
      </button>
    </div>`;
  }

  private renderCallButton(text: VoxgateChatStrings) {
    if (!this.profile?.widget_settings.voice) return nothing;
    const call = this.voice;
    const active = call.active;
    return html`<button
      type="button"
      class=${classMap({ "call-button": true, active })}
      part="call-button"
      aria-label=${active ? text.hangUpButton : text.callButton}
      title=${active ? text.hangUpButton : text.callButton}
      data-state=${call.view?.state ?? "idle"}
      @click=${call.toggle}
    >
      ${phoneIcon}
    </button>`;
  }

  private renderCallStatus(text: VoxgateChatStrings) {
    const call = this.voice.view;
    if (!call) return nothing;
    const label =
      call.state === "connecting"
        ? text.callConnecting
        : call.state === "live"
          ? text.callLive
          : text.callEnded;
    return html`<p class="call-status" part="call-status" role="status" data-state=${call.state}>
      ${label}
    </p>`;
  }

  private renderMessages(text: VoxgateChatStrings) {
    const greeting = this.greeting;
    return html`<div
      class="messages"
      part="messages"
      role="log"
      aria-live="polite"
      aria-labelledby="title"
      aria-busy=${this.historyLoading ? "true" : "false"}
    >
      ${greeting ? this.renderEntry({ key: "greeting", role: "assistant", content: greeting, state: "sent" }, text) : nothing}
      ${this.historyLoading ? html`<p class="visually-hidden">${text.loadingHistory}</p>` : nothing}
      ${this.entries.map((entry) => this.renderEntry(entry, text))}
      ${
        this.waiting
          ? html`<div class="typing" part="typing" role="status" aria-label=${text.typing}>
              <span></span><span></span><span></span>
            </div>`
          : nothing
      }
    </div>`;
  }

  private renderEntry(entry: ChatEntry, text: VoxgateChatStrings) {
    const from = entry.spoken
      ? entry.role === "user"
        ? text.saidOnCallVisitor
        : text.saidOnCallAssistant
      : entry.role === "user"
        ? text.fromVisitor
        : entry.role === "operator"
          ? text.fromOperator
          : text.fromAssistant;
    return html`<div
      class=${classMap({
        message: true,
        [entry.role]: true,
        failed: entry.state === "failed",
        spoken: entry.spoken === true,
      })}
      part="message message-${entry.role}${entry.spoken ? " message-spoken" : ""}"
      data-state=${entry.state}
    >
      <span class="visually-hidden">${from}</span>
      ${
        entry.role === "user"
          ? html`<span class="user-text">${entry.content}</span>`
          : html`<div class="content">${renderMarkdown(entry.content)}</div>`
      }
      ${entry.state === "failed" ? html`<span class="message-status">${text.notSent}</span>` : nothing}
    </div>`;
  }

  private renderError(text: VoxgateChatStrings) {
    const error = this.error;
    if (!error) return nothing;
    const secondsLeft = error.retryAt === null ? 0 : Math.ceil((error.retryAt - this.countdown.now) / 1000);
    const waiting = secondsLeft > 0;
    return html`<div class="error" part="error" role="alert" data-kind=${error.kind}>
      <p>${error.text}</p>
      ${
        error.retry
          ? html`<button
              type="button"
              class="retry-button"
              part="retry-button"
              ?disabled=${waiting || this.waiting}
              @click=${error.retry}
            >
              ${waiting ? format(text.retryInSeconds, { seconds: secondsLeft }) : error.retryLabel}
            </button>`
          : nothing
      }
    </div>`;
  }

  private renderForm(text: VoxgateChatStrings) {
    const length = this.draft.trim().length;
    const over = length - MAX_MESSAGE_LENGTH;
    const blocked = this.error !== null && isPermanent(this.error.kind);
    return html`<form class="form" part="form" @submit=${this.onSubmit}>
      <div class="input-row">
        <textarea
          class="input"
          part="input"
          rows="1"
          aria-label=${text.inputLabel}
          aria-describedby="counter"
          aria-invalid=${over > 0 ? "true" : "false"}
          placeholder=${text.inputPlaceholder}
          .value=${live(this.draft)}
          @input=${(event: InputEvent) => {
            this.draft = (event.target as HTMLTextAreaElement).value;
          }}
          @keydown=${this.onInputKeydown}
        ></textarea>
        <button
          type="submit"
          class="send-button"
          part="send-button"
          ?disabled=${length === 0 || over > 0 || this.waiting || blocked}
        >
          ${text.sendButton}
        </button>
      </div>
      <span id="counter" class=${classMap({ counter: true, over: over > 0 })} part="counter">
        ${format(text.counter, { count: length, max: MAX_MESSAGE_LENGTH })}
        ${over > 0 ? html`<span role="status"> ${format(text.tooLong, { over })}</span>` : nothing}
      </span>
    </form>`;
  }
}

function errorText(kind: WidgetErrorKind, text: VoxgateChatStrings): string {
  switch (kind) {
    case "network":
      return text.errorNetwork;
    case "insufficient-balance":
    case "assistant-not-found":
      return text.errorUnavailable;
    case "rate-limited":
      return text.errorRateLimited;
    case "conversation-gone":
      return text.errorConversationGone;
    case "origin-not-allowed":
      return text.errorOriginNotAllowed;
    case "invalid-message":
      return text.errorInvalidMessage;
    case "server":
      return text.errorServer;
    case "at-capacity":
      return text.errorAtCapacity;
    case "microphone-denied":
      return text.errorMicrophoneDenied;
    case "call-failed":
      return text.errorCallFailed;
  }
}

function normaliseTheme(value: string | undefined): WidgetTheme {
  return value === "dark" || value === "auto" ? value : "light";
}

function normalisePosition(value: string | undefined): WidgetPosition {
  return value?.includes("left") ? "bottom-left" : "bottom-right";
}
