import { html, nothing } from "lit";
import { classMap } from "lit/directives/class-map.js";
import { live } from "lit/directives/live.js";
import type { ChatEntry, ConversationController } from "./conversation.controller.ts";
import type { ErrorNoticeController } from "./error-notice.controller.ts";
import { renderMarkdown } from "./markdown.ts";
import { format, type VoxgateChatStrings } from "./strings.ts";
import type { CallView, WebCallController } from "./web-call.controller.ts";

// The panel's parts below its title, rendered from the state of the element's controllers.

export const chatIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true">
  <path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z" />
</svg>`;
const phoneIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true">
  <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z" />
</svg>`;
export const closeIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true">
  <path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z" />
</svg>`;

export function callButton(voice: WebCallController, text: VoxgateChatStrings) {
  const active = voice.active;
  return html`<button
    type="button"
    class=${classMap({ "call-button": true, active })}
    part="call-button"
    aria-label=${active ? text.hangUpButton : text.callButton}
    title=${active ? text.hangUpButton : text.callButton}
    data-state=${voice.view?.state ?? "idle"}
    @click=${voice.toggle}
  >
    ${phoneIcon}
  </button>`;
}

export function callStatus(call: CallView | null, text: VoxgateChatStrings) {
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

export function messageLog(conversation: ConversationController, greeting: string, text: VoxgateChatStrings) {
  return html`<div
    class="messages"
    part="messages"
    role="log"
    aria-live="polite"
    aria-labelledby="title"
    aria-busy=${conversation.historyLoading ? "true" : "false"}
  >
    ${greeting ? message({ key: "greeting", role: "assistant", content: greeting, state: "sent" }, text) : nothing}
    ${conversation.historyLoading ? html`<p class="visually-hidden">${text.loadingHistory}</p>` : nothing}
    ${conversation.entries.map((entry) => message(entry, text))}
    ${
      conversation.waiting
        ? html`<div class="typing" part="typing" role="status" aria-label=${text.typing}>
            <span></span><span></span><span></span>
          </div>`
        : nothing
    }
  </div>`;
}

function message(entry: ChatEntry, text: VoxgateChatStrings) {
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

/** The notice of the last failure; its retry also waits while a reply is on its way (`busy`). */
export function errorNotice(notice: ErrorNoticeController, busy: boolean, text: VoxgateChatStrings) {
  const error = notice.shown;
  if (!error) return nothing;
  const secondsLeft = notice.secondsLeft;
  const waiting = secondsLeft > 0;
  return html`<div class="error" part="error" role="alert" data-kind=${error.kind}>
    <p>${error.text}</p>
    ${
      error.retry
        ? html`<button
            type="button"
            class="retry-button"
            part="retry-button"
            ?disabled=${waiting || busy}
            @click=${error.retry}
          >
            ${waiting ? format(text.retryInSeconds, { seconds: secondsLeft }) : error.retryLabel}
          </button>`
        : nothing
    }
  </div>`;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line, and Enter that confirms an IME
 * composition does neither. `blocked` disables sending after a failure that sending cannot fix.
 */
export function messageForm(
  conversation: ConversationController,
  blocked: boolean,
  text: VoxgateChatStrings,
) {
  const length = conversation.length;
  const max = conversation.maxLength;
  const over = length - max;
  return html`<form
    class="form"
    part="form"
    @submit=${(event: SubmitEvent) => {
      event.preventDefault();
      conversation.send();
    }}
  >
    <div class="input-row">
      <textarea
        class="input"
        part="input"
        rows="1"
        aria-label=${text.inputLabel}
        aria-describedby="counter"
        aria-invalid=${over > 0 ? "true" : "false"}
        placeholder=${text.inputPlaceholder}
        .value=${live(conversation.draft)}
        @input=${(event: InputEvent) => conversation.setDraft((event.target as HTMLTextAreaElement).value)}
        @keydown=${(event: KeyboardEvent) => {
          if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            conversation.send();
          }
        }}
      ></textarea>
      <button
        type="submit"
        class="send-button"
        part="send-button"
        ?disabled=${length === 0 || over > 0 || conversation.waiting || blocked}
      >
        ${text.sendButton}
      </button>
    </div>
    <span id="counter" class=${classMap({ counter: true, over: over > 0 })} part="counter">
      ${format(text.counter, { count: length, max })}
      ${over > 0 ? html`<span role="status"> ${format(text.tooLong, { over })}</span>` : nothing}
    </span>
  </form>`;
}
