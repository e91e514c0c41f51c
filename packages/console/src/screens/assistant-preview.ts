import { html, nothing, type ReactiveControllerHost } from "lit";
import { keyed } from "lit/directives/keyed.js";
import type { ConsoleApi } from "../api/client.ts";
import { href } from "../router.ts";
import { callStatus } from "../status-words.ts";
import type { Values } from "./assistant-settings.ts";

/** Loads the widget's embed script from the server once, so the preview is the real widget. */
let widgetScript: Promise<unknown> | null = null;
function loadWidget(apiBase: string): Promise<unknown> {
  widgetScript ??= import(/* @vite-ignore */ `${apiBase}/widget/voxgate-chat.js`).catch((error) => {
    widgetScript = null;
    throw error;
  });
  return widgetScript;
}

type PreviewWidget = HTMLElement & { callAssistant(): Promise<void>; hangUp(): void };
/** `reason`: the server's words for a call refused before it started. */
type TestCall = { callId: number | null; state: string; reason?: string };

/**
 * The saved assistant in the real widget, and a test call through it: a web call from this browser's
 * microphone, whose state (and call page) shows beside its buttons.
 */
export class WidgetPreview {
  #ready = false;
  #testCall: TestCall | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & {
      readonly api: ConsoleApi;
      readonly renderRoot: HTMLElement | DocumentFragment;
    },
  ) {}

  /** Fetches the widget's script; the preview shows once it is in (a failure leaves "Loading the widget…"). */
  load(): void {
    loadWidget(this.host.api.apiBase).then(
      () => {
        this.#ready = true;
        this.host.requestUpdate();
      },
      () => {},
    );
  }

  #setTestCall(testCall: TestCall | null): void {
    this.#testCall = testCall;
    this.host.requestUpdate();
  }

  private get widget() {
    return this.host.renderRoot.querySelector("voxgate-chat") as PreviewWidget | null;
  }

  /** Starts a web call through the preview widget: its own voice code, loaded when first needed. */
  private async startTestCall(): Promise<void> {
    const widget = this.widget;
    if (!widget) return;
    this.#setTestCall({ callId: null, state: "connecting" });
    await widget.callAssistant();
    // Refused before it started with no reason given (the widget shows why): nothing is running.
    if (this.#testCall?.state === "connecting") this.#setTestCall(null);
  }

  /** The preview, the test call's buttons and state, and the embed code, for the assistant's saved `values`. */
  render(values: Values) {
    const voice = values["widgetSettings.voice"] === true;
    const testCall = this.#testCall;
    return html`<h2>Widget preview</h2>
      <div class="preview" part="preview">
        ${
          this.#ready
            ? // A new element when voice is saved on or off: the widget reads the assistant once.
              keyed(
                voice,
                html`<voxgate-chat
                  assistant=${String(values.uuid)}
                  api-base=${this.host.api.apiBase}
                  theme=${String(values["widgetSettings.theme"] ?? "light")}
                  color=${String(values["widgetSettings.color"] ?? "#4f46e5")}
                  position=${String(values["widgetSettings.position"] ?? "bottom-right")}
                  style="--voxgate-z-index: 1"
                  @voxgate-call-start=${(event: CustomEvent<{ callId: number }>) => {
                    this.#setTestCall({ callId: event.detail.callId, state: "live" });
                  }}
                  @voxgate-error=${(event: CustomEvent<{ message: string }>) => {
                    // Refused before it started (e.g. no speech service): the server's reason, here.
                    if (this.#testCall?.state === "connecting")
                      this.#setTestCall({ callId: null, state: "not started", reason: event.detail.message });
                  }}
                  @voxgate-call-end=${(event: CustomEvent<{ callId: number; status: string | null }>) => {
                    this.#setTestCall({
                      callId: event.detail.callId,
                      state: event.detail.status ? callStatus(event.detail.status) : "failed",
                    });
                  }}
                ></voxgate-chat>`,
              )
            : html`<p class="muted">Loading the widget…</p>`
        }
      </div>
      <h2>Test call</h2>
      <p class="hint">Calls the assistant from this browser with your microphone, through the preview above, which
        shows the call and its transcript as it happens. A test call is a web call like a visitor's: it is recorded
        and billed by the minute (speech recognition and synthesis cost per minute, unlike a test chat).</p>
      ${
        voice
          ? html`<p class="row">
              <button type="button" ?disabled=${!this.#ready || testCall?.state === "connecting" || testCall?.state === "live"}
                @click=${() => this.startTestCall()}>Test call</button>
              ${
                testCall?.state === "live"
                  ? html`<button type="button" class="danger" @click=${() => this.widget?.hangUp()}>End call</button>`
                  : nothing
              }
              <span role="status" aria-live="polite" data-testid="test-call-state">${
                testCall
                  ? html`${testCall.callId === null ? "Call" : html`<a href=${href("calls", testCall.callId)}>Call ${testCall.callId}</a>`}: ${
                      testCall.state === "live" ? "live, speak now" : testCall.state
                    }${testCall.reason ? html`. <span class="error">${testCall.reason}</span>` : nothing}`
                  : nothing
              }</span></p>`
          : html`<p class="muted">Tick “Calls from the widget (voice)” and save to make a test call.</p>`
      }
      <p class="hint">Embed: <code>&lt;script type="module" src="${this.host.api.apiBase}/widget/voxgate-chat.js"&gt;&lt;/script&gt;
        &lt;voxgate-chat assistant="${String(values.uuid)}"&gt;&lt;/voxgate-chat&gt;</code></p>`;
  }
}
