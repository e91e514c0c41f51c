import type { ReactiveControllerHost } from "lit";
import { isPermanent, type WidgetApiError, type WidgetErrorKind } from "./api-client.ts";
import { CountdownController } from "./countdown.controller.ts";
import { emit } from "./events.ts";
import type { VoxgateChatStrings } from "./strings.ts";

/** The notice the visitor sees for the last failure. */
export interface ShownError {
  kind: WidgetErrorKind;
  text: string;
  retryLabel: string;
  retry: (() => void) | null;
  /** While a rate limit lasts, the retry button waits until this time (ms since epoch). */
  retryAt: number | null;
}

/**
 * The element's error notice: one failure at a time, told kindly in the page's strings, reported as
 * `voxgate-error` from the element, and with a retry that waits out a rate limit's `Retry-After`.
 * It has no lifecycle of its own: the countdown stops itself when the element leaves the page.
 */
export class ErrorNoticeController {
  shown: ShownError | null = null;
  /** Counts a rate limit's wait down on the retry button. */
  private readonly countdown: CountdownController;

  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly text: () => VoxgateChatStrings,
  ) {
    this.countdown = new CountdownController(host);
  }

  /** Seconds the retry button still waits; 0 when it may be pressed. */
  get secondsLeft(): number {
    const retryAt = this.shown?.retryAt ?? null;
    return retryAt === null ? 0 : Math.ceil((retryAt - this.countdown.now) / 1000);
  }

  /** Whether the failure is one that sending again cannot fix (so the form stays disabled). */
  get blocking(): boolean {
    return this.shown !== null && isPermanent(this.shown.kind);
  }

  show(error: WidgetApiError, retry: (() => void) | null): void {
    const text = this.text();
    const retryAt =
      (error.kind === "rate-limited" || error.kind === "at-capacity") && error.retryAfterSeconds !== null
        ? Date.now() + error.retryAfterSeconds * 1000
        : null;
    this.set({
      kind: error.kind,
      text: errorText(error.kind, text),
      retryLabel: error.kind === "conversation-gone" ? text.startNewConversation : text.retryButton,
      retry,
      retryAt,
    });
    if (retryAt !== null) this.countdown.start(retryAt);
    this.report(error);
  }

  dismiss(): void {
    this.set(null);
    this.countdown.stop();
  }

  /** Tells the page about a failure, also one the visitor is not shown. */
  report(error: WidgetApiError): void {
    emit(this.host, "voxgate-error", { kind: error.kind, status: error.status, message: error.message });
  }

  private set(shown: ShownError | null): void {
    this.shown = shown;
    this.host.requestUpdate();
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
