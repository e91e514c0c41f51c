import type { LitElement, ReactiveController } from "lit";
import {
  asApiError,
  isPermanent,
  type MessageRole,
  type WidgetApi,
  type WidgetApiError,
} from "./api-client.ts";
import { emit } from "./events.ts";
import { SessionStore } from "./session-store.ts";

/** One bubble of the message log. */
export interface ChatEntry {
  key: string;
  role: MessageRole;
  content: string;
  state: "sent" | "sending" | "failed";
  /** Said on a web call (its live transcript), not written. */
  spoken?: boolean;
}

/** What the conversation needs from its element, and what it tells it. */
export interface ConversationHooks {
  /** The server's client; null until the element has a server. */
  api(): WidgetApi | null;
  /** The assistant's uuid, which a new conversation is started with. */
  assistant(): string | undefined;
  /** The greeting the panel shows first, which the history may repeat. */
  greeting(): string;
  /** Whether the panel is open, stored beside the conversation id. */
  open(): boolean;
  /** An operator message found in the history: false when the live stream has shown it already. */
  claim(id: number | string): boolean;
  /** A message is going out: an earlier notice no longer applies. */
  starting(): void;
  /** Sending or reading the history failed; `retry` tries again where that can help. */
  failed(error: WidgetApiError, retry: (() => void) | null): void;
}

let entryCounter = 0;
const nextKey = () => `entry-${++entryCounter}`;

/**
 * The visitor's written conversation: the draft, sending it (the conversation starts with the first
 * message), the assistant's reply with `voxgate-message-sent` and `voxgate-message-received` from the
 * element, the history of a conversation restored after a reload, and the conversation id kept in
 * the page's storage. The message log follows its newest message.
 */
export class ConversationController implements ReactiveController {
  /** The log's messages, oldest first; the greeting is not one of them. */
  entries: ChatEntry[] = [];
  /** A reply is on its way (the typing indicator). */
  waiting = false;
  historyLoading = false;
  /** The text in the message box. */
  draft = "";
  /** Null until the visitor's first message starts a conversation, or one is restored. */
  id: string | null = null;
  private historyLoaded = false;
  private store: SessionStore | null = null;
  /** The log changed since the last render, so it scrolls to its end. */
  private moved = false;

  constructor(
    private readonly host: LitElement,
    private readonly hooks: ConversationHooks,
    /** The longest message the server takes. */
    readonly maxLength: number,
  ) {
    host.addController(this);
  }

  hostUpdated(): void {
    if (this.moved) this.scrollToEnd();
  }

  scrollToEnd(): void {
    this.moved = false;
    const log = this.host.renderRoot.querySelector(".messages");
    if (log) log.scrollTop = log.scrollHeight;
  }

  /** Another assistant or server: nothing of the previous conversation stays on screen. */
  clear(): void {
    this.setEntries([]);
    this.historyLoaded = false;
  }

  /** Picks up the stored session of this assistant on this server; returns whether its panel was open. */
  restore(apiBase: string, assistant: string): boolean {
    this.store = new SessionStore(apiBase, assistant);
    const session = this.store.read();
    this.id = session.conversationId;
    return session.open;
  }

  /** Stores the conversation id and whether the panel is open, for the next page load. */
  remember(): void {
    this.store?.write({ conversationId: this.id, open: this.hooks.open() });
  }

  /** Adds a message that arrived by another way: an operator's, or one said on a call. */
  add(role: MessageRole, content: string, spoken = false): void {
    this.push({ key: nextKey(), role, content, state: "sent", spoken });
  }

  setDraft(draft: string): void {
    this.draft = draft;
    this.host.requestUpdate();
  }

  /** Characters in the draft as it would be sent. */
  get length(): number {
    return this.draft.trim().length;
  }

  /** Sends the draft, unless it is empty, too long, or a reply is still on its way. */
  send(): void {
    const message = this.draft.trim();
    if (!message || message.length > this.maxLength || this.waiting) return;
    const entry: ChatEntry = { key: nextKey(), role: "user", content: message, state: "sending" };
    this.setDraft("");
    this.push(entry);
    void this.deliver(entry);
  }

  /** Shows the stored conversation's earlier messages above anything already on screen, once. */
  async loadHistory(): Promise<void> {
    const api = this.hooks.api();
    const conversationId = this.id;
    if (!api || !conversationId || this.historyLoaded || this.historyLoading) return;
    this.setHistoryLoading(true);
    try {
      const history = await api.fetchHistory(conversationId);
      if (conversationId !== this.id) return;
      this.historyLoaded = true;
      const greeting = this.hooks.greeting();
      const shown = history.messages.filter((message, index) => {
        if (!["user", "assistant", "operator"].includes(message.role)) return false;
        // Already shown by the live stream, which can be quicker than the history.
        if (message.role === "operator" && !this.hooks.claim(message.id)) return false;
        // The server may store the greeting as the first message; the widget already shows it.
        return !(index === 0 && message.role === "assistant" && message.content === greeting);
      });
      this.setEntries([
        ...shown.map(
          (message): ChatEntry => ({
            key: nextKey(),
            role: message.role,
            content: message.content,
            state: "sent",
          }),
        ),
        ...this.entries,
      ]);
    } catch (failure) {
      const error = asApiError(failure);
      if (error.kind === "conversation-gone") {
        // The stored conversation was deleted: the visitor simply starts afresh.
        this.forget();
        this.historyLoaded = true;
        return;
      }
      this.hooks.failed(error, () => void this.loadHistory());
    } finally {
      this.setHistoryLoading(false);
    }
  }

  private async deliver(entry: ChatEntry): Promise<void> {
    const api = this.hooks.api();
    const assistant = this.hooks.assistant();
    if (!api || !assistant) return;
    this.hooks.starting();
    this.setEntryState(entry, "sending");
    this.setWaiting(true);
    try {
      if (!this.id) {
        // Conversations start with the first message, so page views alone create nothing on the server.
        const started = await api.startConversation(assistant);
        this.id = started.conversation_id;
        this.historyLoaded = true;
        this.remember();
      }
      const conversationId = this.id;
      const reply = await api.sendMessage(conversationId, entry.content);
      this.setEntryState(entry, "sent");
      emit(this.host, "voxgate-message-sent", { conversationId, message: entry.content });
      if (reply.message) {
        this.add("assistant", reply.message);
        emit(this.host, "voxgate-message-received", {
          conversationId,
          message: reply.message,
          functionCalls: reply.function_calls ?? [],
        });
      }
    } catch (failure) {
      const error = asApiError(failure);
      if (error.kind === "invalid-message") {
        // The visitor can fix the text: it goes back into the box instead of lingering as "not sent".
        this.setEntries(this.entries.filter((candidate) => candidate !== entry));
        this.setDraft(entry.content);
        this.hooks.failed(error, null);
        return;
      }
      this.setEntryState(entry, "failed");
      if (error.kind === "conversation-gone") this.forget();
      this.hooks.failed(error, isPermanent(error.kind) ? null : () => void this.deliver(entry));
    } finally {
      this.setWaiting(false);
    }
  }

  private forget(): void {
    this.id = null;
    this.remember();
  }

  private push(entry: ChatEntry): void {
    this.setEntries([...this.entries, entry]);
  }

  private setEntryState(entry: ChatEntry, state: ChatEntry["state"]): void {
    entry.state = state;
    this.setEntries([...this.entries]);
  }

  private setEntries(entries: ChatEntry[]): void {
    this.entries = entries;
    this.moved = true;
    this.host.requestUpdate();
  }

  private setWaiting(waiting: boolean): void {
    if (waiting === this.waiting) return;
    this.waiting = waiting;
    this.moved = true;
    this.host.requestUpdate();
  }

  private setHistoryLoading(loading: boolean): void {
    this.historyLoading = loading;
    this.host.requestUpdate();
  }
}
