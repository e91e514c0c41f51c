import type { ReactiveController, ReactiveControllerHost } from "lit";
import { asApiError, isPermanent, type WidgetApi, WidgetApiError } from "./api-client.ts";
import { emit } from "./events.ts";
import type { WebCall } from "./voice/web-call.ts";

/** The visitor's web call, while one is under way or just ended. */
export interface CallView {
  state: "connecting" | "live" | "ended";
  callId: number | null;
}

/** What the call needs from its element, and what it tells it. */
export interface WebCallHooks {
  /** Where a call goes; null while the element has no assistant to call. */
  target(): { api: WidgetApi; assistant: string; apiBase: string } | null;
  /** A call is starting: an earlier notice no longer applies. */
  starting(): void;
  /** A line said on the call (its live transcript), or the closing message of the call. */
  said(role: "user" | "assistant", content: string): void;
  /** The call could not start or go on; `retry` starts another where that can help. */
  failed(error: WidgetApiError, retry: (() => void) | null): void;
}

/**
 * The visitor's web call from its element: the call's state for the header, its transcript into the
 * messages, `voxgate-call-start` and `voxgate-call-end` from the element, and a hang-up when the
 * element leaves the page. The call's own code (microphone, playback, socket) is a chunk loaded by
 * the first call, so pages where nobody calls never fetch it.
 */
export class WebCallController implements ReactiveController {
  /** Null until the visitor first calls. */
  view: CallView | null = null;
  private call: WebCall | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly hooks: WebCallHooks,
  ) {
    host.addController(this);
  }

  /** Whether a call is connecting or live. */
  get active(): boolean {
    return this.view !== null && this.view.state !== "ended";
  }

  /**
   * The call button's click: hangs up a running call (or forgets one still being admitted), else
   * starts one. An arrow, so that the element's template can bind it as its listener.
   */
  readonly toggle = (): void => {
    if (!this.active) void this.start();
    else if (this.call) this.call.hangUp();
    else this.setView(null);
  };

  /** Ends the running call; nothing when none runs. */
  hangUp(): void {
    this.call?.hangUp();
  }

  hostDisconnected(): void {
    this.hangUp();
  }

  /**
   * Starts a web call: the server admits it (voice enabled, origin, balance, capacity) while the
   * voice code loads.
   */
  async start(): Promise<void> {
    const target = this.hooks.target();
    if (!target || this.active) return;
    this.hooks.starting();
    this.setView({ state: "connecting", callId: null });
    const voice = import("./voice/web-call.ts");
    try {
      const [started, { WebCall }] = await Promise.all([target.api.startWebCall(target.assistant), voice]);
      const callId = started.call_id;
      this.setView({ state: "connecting", callId });
      const call = new WebCall({
        onLive: () => {
          this.setView({ state: "live", callId });
          emit(this.host, "voxgate-call-start", { callId });
        },
        onTranscript: (line) =>
          this.hooks.said(line.speaker === "customer" ? "user" : "assistant", line.text),
        onEnd: (end) => {
          this.call = null;
          this.setView({ state: "ended", callId });
          if (end.message) this.hooks.said("assistant", end.message);
          emit(this.host, "voxgate-call-end", { callId, status: end.status });
        },
        onFailure: (failure, message) => {
          this.call = null;
          this.setView(null);
          // A microphone the visitor refused stays refused until they change it: no retry for it.
          const retry = failure === "microphone-denied" ? null : () => void this.start();
          this.hooks.failed(new WidgetApiError(failure, message, 0), retry);
          emit(this.host, "voxgate-call-end", { callId, status: null });
        },
      });
      this.call = call;
      await call.connect(target.apiBase, started);
    } catch (failure) {
      this.call = null;
      this.setView(null);
      const error = asApiError(failure);
      this.hooks.failed(error, isPermanent(error.kind) ? null : () => void this.start());
    }
  }

  private setView(view: CallView | null): void {
    this.view = view;
    this.host.requestUpdate();
  }
}
