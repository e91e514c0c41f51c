import { html, LitElement, nothing, type PropertyValues } from "lit";
import { classMap } from "lit/directives/class-map.js";
import { styleMap } from "lit/directives/style-map.js";
import {
  type AssistantProfile,
  asApiError,
  WidgetApi,
  type WidgetPosition,
  type WidgetTheme,
} from "./api-client.ts";
import { readableTextOn, validHexColor } from "./color.ts";
import { ConversationController } from "./conversation.controller.ts";
import { ErrorNoticeController } from "./error-notice.controller.ts";
import { emit } from "./events.ts";
import { OperatorMessagesController } from "./operator-messages.controller.ts";
import { defaultStrings, type VoxgateChatStrings } from "./strings.ts";
import { voxgateChatStyles } from "./voxgate-chat.styles.ts";
import {
  callButton,
  callStatus,
  chatIcon,
  closeIcon,
  errorNotice,
  messageForm,
  messageLog,
} from "./voxgate-chat.templates.ts";
import { WebCallController } from "./web-call.controller.ts";

/** The server refuses longer messages; the widget says so before sending. */
export const MAX_MESSAGE_LENGTH = 2000;

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

  private api: WidgetApi | null = null;
  /** Loads started for an older assistant/api-base pair are ignored when they finish. */
  private loadGeneration = 0;
  private toggledByUser = false;
  private readonly notice = new ErrorNoticeController(this, () => this.text);
  private readonly conversation: ConversationController = new ConversationController(
    this,
    {
      api: () => this.api,
      assistant: () => this.assistant,
      greeting: () => this.greeting,
      open: () => this.open,
      claim: (id) => this.operatorMessages.claim(id),
      starting: () => this.notice.dismiss(),
      failed: (error, retry) => this.notice.show(error, retry),
    },
    MAX_MESSAGE_LENGTH,
  );
  private readonly operatorMessages = new OperatorMessagesController(
    this,
    () => ({ api: this.api, id: this.conversation.id, visible: this.open && this.phase === "ready" }),
    (content) => this.conversation.add("operator", content),
  );
  private readonly voice = new WebCallController(this, {
    target: () => {
      const apiBase = this.effectiveApiBase;
      return this.api && this.assistant && apiBase
        ? { api: this.api, assistant: this.assistant, apiBase }
        : null;
    },
    starting: () => this.notice.dismiss(),
    said: (role, content) => this.conversation.add(role, content, true),
    failed: (error, retry) => this.notice.show(error, retry),
  });

  constructor() {
    super();
    this.open = false;
    this.strings = {};
    this.phase = "idle";
    this.profile = null;
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

  private get greeting(): string {
    return this.initialMessage ?? this.profile?.initial_message ?? "";
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has("assistant") || changed.has("apiBase")) void this.load();
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has("open") && changed.get("open") !== undefined) this.afterToggle();
    // However the log was scrolled when the panel closed, it opens on the newest message.
    if (changed.has("open")) this.conversation.scrollToEnd();
  }

  private async load(): Promise<void> {
    const generation = ++this.loadGeneration;
    const apiBase = this.effectiveApiBase;
    this.conversation.clear();
    this.operatorMessages.forget();
    this.notice.dismiss();
    if (!this.assistant || !apiBase) {
      this.phase = "idle";
      return;
    }
    this.phase = "loading";
    this.api = new WidgetApi(apiBase);
    const wasOpen = this.conversation.restore(apiBase, this.assistant);
    try {
      this.profile = await this.api.fetchAssistant(this.assistant);
    } catch (failure) {
      if (generation !== this.loadGeneration) return;
      const error = asApiError(failure);
      if (error.kind === "assistant-not-found") {
        // A deleted or mistyped assistant must not leave a dead bubble on someone's website.
        this.phase = "unavailable";
        console.warn(`<voxgate-chat>: assistant ${this.assistant} was not found at ${apiBase}.`);
        this.notice.report(error);
        return;
      }
      this.phase = "ready";
      this.notice.show(error, () => void this.load());
      return;
    }
    if (generation !== this.loadGeneration) return;
    this.phase = "ready";
    if (wasOpen && !this.open) this.open = true;
    else if (this.open) void this.conversation.loadHistory();
  }

  private afterToggle(): void {
    const byUser = this.toggledByUser;
    this.toggledByUser = false;
    this.conversation.remember();
    if (this.open) {
      emit(this, "voxgate-open", { byUser });
      void this.conversation.loadHistory();
      // Focus moves only when the visitor asked; a panel restored on page load must not steal it.
      if (byUser) this.renderRoot.querySelector<HTMLTextAreaElement>(".input")?.focus();
    } else {
      emit(this, "voxgate-close", { byUser });
      if (byUser) this.renderRoot.querySelector<HTMLButtonElement>(".launcher")?.focus();
    }
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
    const conversation = this.conversation;

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
          ${settings?.voice ? callButton(this.voice, text) : nothing}
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
        ${callStatus(this.voice.view, text)} ${messageLog(conversation, this.greeting, text)}
        ${errorNotice(this.notice, conversation.waiting, text)}
        ${messageForm(conversation, this.notice.blocking, text)}
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
}

function normaliseTheme(value: string | undefined): WidgetTheme {
  return value === "dark" || value === "auto" ? value : "light";
}

function normalisePosition(value: string | undefined): WidgetPosition {
  return value?.includes("left") ? "bottom-left" : "bottom-right";
}
