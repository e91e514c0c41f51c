import type { FunctionCallOutcome, WidgetErrorKind } from "./api-client.ts";

/** `voxgate-open` and `voxgate-close`: `byUser` is false when the panel was restored after a reload. */
export interface VoxgateToggleDetail {
  byUser: boolean;
}

/** `voxgate-message-sent`: the server accepted the visitor's message. */
export interface VoxgateMessageSentDetail {
  conversationId: string;
  message: string;
}

/** `voxgate-message-received`: the assistant's reply to a message. */
export interface VoxgateMessageReceivedDetail {
  conversationId: string;
  message: string;
  functionCalls: FunctionCallOutcome[];
}

/** `voxgate-error`: what the visitor was told, and the server's own text for logs. */
export interface VoxgateErrorDetail {
  kind: WidgetErrorKind;
  status: number;
  message: string;
}

/** `voxgate-call-start`: the visitor's web call is live (audio flows both ways). */
export interface VoxgateCallStartDetail {
  callId: number;
}

/** `voxgate-call-end`: the web call is over; `status` is the call's final status when the server said it. */
export interface VoxgateCallEndDetail {
  callId: number;
  status: string | null;
}

export interface VoxgateEventMap {
  "voxgate-open": CustomEvent<VoxgateToggleDetail>;
  "voxgate-close": CustomEvent<VoxgateToggleDetail>;
  "voxgate-message-sent": CustomEvent<VoxgateMessageSentDetail>;
  "voxgate-message-received": CustomEvent<VoxgateMessageReceivedDetail>;
  "voxgate-error": CustomEvent<VoxgateErrorDetail>;
  "voxgate-call-start": CustomEvent<VoxgateCallStartDetail>;
  "voxgate-call-end": CustomEvent<VoxgateCallEndDetail>;
}

/** Fires one of the widget's events from its element: they all bubble and cross shadow roots. */
export function emit<Name extends keyof VoxgateEventMap>(
  target: EventTarget,
  name: Name,
  detail: VoxgateEventMap[Name]["detail"],
): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

declare global {
  interface GlobalEventHandlersEventMap {
    "voxgate-open": CustomEvent<VoxgateToggleDetail>;
    "voxgate-close": CustomEvent<VoxgateToggleDetail>;
    "voxgate-message-sent": CustomEvent<VoxgateMessageSentDetail>;
    "voxgate-message-received": CustomEvent<VoxgateMessageReceivedDetail>;
    "voxgate-error": CustomEvent<VoxgateErrorDetail>;
    "voxgate-call-start": CustomEvent<VoxgateCallStartDetail>;
    "voxgate-call-end": CustomEvent<VoxgateCallEndDetail>;
  }
}
