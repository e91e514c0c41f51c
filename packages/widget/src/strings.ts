/**
 * Every text the widget shows or announces. Pass a partial object (property `strings`, or the
 * `strings` attribute as JSON) to translate; missing keys fall back to English. `{name}` placeholders
 * are filled in by the widget.
 */
export interface VoxgateChatStrings {
  /** Accessible name of the launcher bubble while the panel is closed. */
  openChat: string;
  /** Accessible name of the launcher bubble while the panel is open. */
  closeChat: string;
  /** Panel title when neither `chat-title` nor the assistant's name is known. */
  defaultTitle: string;
  closeButton: string;
  inputLabel: string;
  inputPlaceholder: string;
  sendButton: string;
  /** Shown, and announced, while the assistant is composing a reply. */
  typing: string;
  /** The character counter; `{count}` and `{max}`. */
  counter: string;
  /** `{over}`: how many characters must go. */
  tooLong: string;
  loadingHistory: string;
  /** Label on a message of the visitor that did not reach the server. */
  notSent: string;
  /** Screen-reader prefixes of messages. */
  fromVisitor: string;
  fromAssistant: string;
  fromOperator: string;
  retryButton: string;
  /** The retry button while a rate limit lasts; `{seconds}`. */
  retryInSeconds: string;
  startNewConversation: string;
  errorNetwork: string;
  errorUnavailable: string;
  errorRateLimited: string;
  errorConversationGone: string;
  errorOriginNotAllowed: string;
  errorInvalidMessage: string;
  errorServer: string;
  /** The call button (voice, when the assistant takes calls) and its states. */
  callButton: string;
  hangUpButton: string;
  callConnecting: string;
  callLive: string;
  callEnded: string;
  /** Screen-reader prefixes of what was said on a call. */
  saidOnCallVisitor: string;
  saidOnCallAssistant: string;
  errorMicrophoneDenied: string;
  errorAtCapacity: string;
  errorCallFailed: string;
}

export const defaultStrings: VoxgateChatStrings = {
  openChat: "Open chat",
  closeChat: "Close chat",
  defaultTitle: "Chat",
  closeButton: "Close",
  inputLabel: "Message",
  inputPlaceholder: "Type your message…",
  sendButton: "Send",
  typing: "The assistant is typing…",
  counter: "{count} / {max}",
  tooLong: "Your message is {over} characters too long.",
  loadingHistory: "Loading the conversation…",
  notSent: "Not sent",
  fromVisitor: "You said:",
  fromAssistant: "Assistant said:",
  fromOperator: "Support agent said:",
  retryButton: "Try again",
  retryInSeconds: "Try again in {seconds} s",
  startNewConversation: "Start a new conversation",
  errorNetwork: "We can't reach the chat service. Check your connection and try again.",
  errorUnavailable: "The assistant can't answer right now. Please try again later.",
  errorRateLimited: "You're sending messages faster than we can answer. Please wait a moment.",
  errorConversationGone:
    "This conversation has ended. Your message is kept: start a new conversation to send it.",
  errorOriginNotAllowed: "This chat isn't available on this website.",
  errorInvalidMessage: "This message can't be sent. Please change it and try again.",
  errorServer: "Something went wrong on our side. Please try again.",
  callButton: "Call the assistant",
  hangUpButton: "Hang up",
  callConnecting: "Connecting your call…",
  callLive: "On a call: speak now",
  callEnded: "Call ended",
  saidOnCallVisitor: "You said on the call:",
  saidOnCallAssistant: "Assistant said on the call:",
  errorMicrophoneDenied: "We can't use your microphone. Allow it in your browser to call.",
  errorAtCapacity: "All our lines are busy. Please try again in a moment.",
  errorCallFailed: "The call could not be connected. Please try again.",
};

/** Fills `{name}` placeholders; unknown placeholders stay visible so a translator notices them. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
