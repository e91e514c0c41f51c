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

export interface VoxgateEventMap {
  "voxgate-open": CustomEvent<VoxgateToggleDetail>;
  "voxgate-close": CustomEvent<VoxgateToggleDetail>;
  "voxgate-message-sent": CustomEvent<VoxgateMessageSentDetail>;
  "voxgate-message-received": CustomEvent<VoxgateMessageReceivedDetail>;
  "voxgate-error": CustomEvent<VoxgateErrorDetail>;
}

declare global {
  interface GlobalEventHandlersEventMap {
    "voxgate-open": CustomEvent<VoxgateToggleDetail>;
    "voxgate-close": CustomEvent<VoxgateToggleDetail>;
    "voxgate-message-sent": CustomEvent<VoxgateMessageSentDetail>;
    "voxgate-message-received": CustomEvent<VoxgateMessageReceivedDetail>;
    "voxgate-error": CustomEvent<VoxgateErrorDetail>;
  }
}
