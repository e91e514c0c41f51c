import { css, html, nothing } from "lit";
import {
  ConversationActivitySubscription,
  ConversationMessageSubscription,
  ConversationQuery,
  ConversationsQuery,
  HandBackMutation,
  MarkConversationReadMutation,
  SendOperatorMessageMutation,
  SmsConversationsQuery,
  TakeOverMutation,
  WaitingForHumanQuery,
} from "../api/operations.ts";
import type {
  ConsoleConversationQuery,
  ConsoleConversationsQuery,
  ConversationChannel,
} from "../generated/graphql.ts";
import { href } from "../router.ts";
import { emptyState, formatDate, loading, Screen } from "../screen.ts";

type Message = ConsoleConversationQuery["conversation"]["messages"][number];
type Listed = ConsoleConversationsQuery["conversations"]["items"][number];

/** The channels a person answers: website chats and text messages (api and test conversations are not). */
const INBOX_CHANNELS: ConversationChannel[] = ["widget", "sms"];

function isSms(conversation: { channel: string }): boolean {
  return conversation.channel === "sms";
}

function lastActivity(conversation: Listed): string {
  return conversation.lastMessageAt ?? conversation.updatedAt;
}

/**
 * Widget chats and SMS conversations, newest activity first; one open on the side, live, to take over
 * and answer (in an SMS conversation the answer is sent as a text).
 */
export class VxInbox extends Screen {
  static override properties = {
    conversationId: { attribute: false },
    list: { state: true },
    open: { state: true },
    error: { state: true },
    waiting: { state: true },
  };
  declare conversationId: string | null;
  declare list: Listed[] | null;
  declare open: ConsoleConversationQuery["conversation"] | null;
  declare error: string | null;
  /** Conversations of the account waiting for a person (request_human); null before it is known. */
  declare waiting: number | null;
  #unsubscribeOpen: (() => void) | null = null;

  constructor() {
    super();
    this.conversationId = null;
    this.list = null;
    this.open = null;
    this.error = null;
    this.waiting = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.loadList());
    this.run(this.loadWaiting());
    this.track(() => this.#unsubscribeOpen?.());
    // Any conversation's activity moves it to the top of the list with its unread mark.
    this.track(
      this.api.subscribe(ConversationActivitySubscription, {}, ({ conversationActivity }) => {
        const updated = conversationActivity.conversation;
        if (!INBOX_CHANNELS.includes(updated.channel) || !this.list) return;
        const isOpen = updated.id === this.open?.id;
        this.list = [
          { ...updated, unread: updated.unread && !isOpen },
          ...this.list.filter((c) => c.id !== updated.id),
        ];
        if (isOpen && updated.unread)
          this.run(this.api.request(MarkConversationReadMutation, { id: updated.id }));
        if (isOpen && this.open) this.open = { ...this.open, waitingForHuman: updated.waitingForHuman };
        // A request for a person, or a take-over answering one, changes the count.
        this.run(this.loadWaiting());
      }),
    );
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has("conversationId")) this.run(this.openConversation(this.conversationId));
  }

  /** Each channel's list is asked for apart, so one that fails does not hide the other's conversations. */
  private async loadList(): Promise<void> {
    const lists = await Promise.allSettled([
      this.api.request(ConversationsQuery, { page: 1, channel: "widget" }),
      this.api.request(SmsConversationsQuery, { page: 1 }),
    ]);
    const items: Listed[] = [];
    const failures: string[] = [];
    for (const list of lists) {
      if (list.status === "fulfilled") items.push(...list.value.conversations.items);
      else failures.push((list.reason as Error).message);
    }
    this.list = items.sort((a, b) => (lastActivity(a) < lastActivity(b) ? 1 : -1));
    this.error = failures.length ? failures.join(" ") : null;
  }

  private async loadWaiting(): Promise<void> {
    this.waiting = (await this.api.request(WaitingForHumanQuery, {})).conversations.pageInfo.total;
  }

  private async openConversation(id: string | null): Promise<void> {
    this.#unsubscribeOpen?.();
    this.#unsubscribeOpen = null;
    this.open = null;
    if (!id) return;
    this.open = (await this.api.request(ConversationQuery, { id })).conversation;
    this.#unsubscribeOpen = this.api.subscribe(
      ConversationMessageSubscription,
      { conversationId: id },
      (data) => {
        this.addMessage(data.conversationMessageAdded);
      },
    );
    await this.markRead(id);
  }

  private async markRead(id: string): Promise<void> {
    const target = this.list?.find((c) => c.id === id);
    if (target && !target.unread) return;
    await this.api.request(MarkConversationReadMutation, { id });
    this.list = this.list?.map((c) => (c.id === id ? { ...c, unread: false } : c)) ?? null;
  }

  private addMessage(message: Message): void {
    if (!this.open || this.open.messages.some((m) => m.id === message.id)) return;
    this.open = { ...this.open, messages: [...this.open.messages, message] };
  }

  private async setAi(takeOver: boolean): Promise<void> {
    if (!this.open) return;
    const result = takeOver
      ? (await this.api.request(TakeOverMutation, { id: this.open.id })).takeOverConversation
      : (await this.api.request(HandBackMutation, { id: this.open.id })).handBackConversation;
    this.open = { ...this.open, aiDisabled: result.aiDisabled, waitingForHuman: result.waitingForHuman };
    this.list = this.list?.map((c) => (c.id === result.id ? { ...c, ...result } : c)) ?? null;
    this.run(this.loadWaiting());
  }

  private async reply(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const content = String(new FormData(form).get("content") ?? "").trim();
    if (!content || !this.open) return;
    try {
      const { sendOperatorMessage } = await this.api.request(SendOperatorMessageMutation, {
        conversationId: this.open.id,
        content,
      });
      form.reset();
      this.addMessage(sendOperatorMessage);
      this.error = null;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  override render() {
    return html`
      <div class="row"><h1>Inbox</h1>
        ${
          this.waiting
            ? html`<span class="badge waiting" role="status">${this.waiting} waiting for a person</span>`
            : nothing
        }
        <button type="button" @click=${this.loadList}>Refresh</button></div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="inbox">
        <nav aria-label="Conversations" class="list">
          ${
            this.list === null
              ? loading
              : this.list.length === 0
                ? emptyState(
                    "No widget or SMS conversations yet.",
                    html`They appear here, live, when a visitor writes in an assistant's chat on your website or a customer texts one of your numbers. <a href=${href("assistants")}>Open an assistant</a> to get its widget's embed code and try it.`,
                  )
                : html`<ul>${this.list.map(
                    (c) => html`<li>
                      <a href=${href("inbox", c.id)} aria-current=${c.id === this.conversationId ? "true" : "false"}>
                        ${c.unread ? html`<span class="dot" aria-label="Unread"></span>` : nothing}
                        ${isSms(c) ? html`<span class="badge sms">SMS</span>` : nothing}
                        <strong>${c.customerIdentifier ?? c.origin ?? "Visitor"}</strong>
                        ${c.aiDisabled ? html`<span class="badge">taken over</span>` : nothing}
                        ${c.waitingForHuman ? html`<span class="badge waiting">wants a person</span>` : nothing}
                        <span class="preview">${c.lastMessage?.content ?? ""}</span>
                        <span class="muted when">${formatDate(c.lastMessageAt ?? c.updatedAt)}</span>
                      </a></li>`,
                  )}</ul>`
          }
        </nav>
        <section class="thread" aria-label="Conversation">
          ${this.open ? this.renderThread(this.open) : html`<p class="muted">Choose a conversation.</p>`}
        </section>
      </div>
    `;
  }

  private renderThread(conversation: ConsoleConversationQuery["conversation"]) {
    const sms = isSms(conversation);
    const customer = sms ? "Customer" : "Visitor";
    return html`
      ${
        sms
          ? html`<p class="row"><span class="badge sms">SMS</span>
              <strong>Text messages with ${conversation.customerIdentifier ?? "an unknown number"}</strong></p>`
          : nothing
      }
      ${
        conversation.waitingForHuman
          ? html`<p class="waiting-note" role="status">The customer asked for a person: take over to answer.</p>`
          : nothing
      }
      <div class="row">
        <span class="badge">${conversation.aiDisabled ? "You are answering (AI off)" : "The AI is answering"}</span>
        ${
          conversation.aiDisabled
            ? html`<button type="button" @click=${() => this.setAi(false)}>Hand back to AI</button>`
            : html`<button type="button" class="primary" @click=${() => this.setAi(true)}>Take over</button>`
        }
        <vx-make-test .conversationId=${conversation.id}></vx-make-test>
      </div>
      <ol class="messages" role="log" aria-live="polite" aria-label="Messages">
        ${conversation.messages
          .filter((m) => m.role !== "system")
          .map(
            (m) => html`<li class="msg ${m.role}">
              <span class="who">${m.role === "user" ? customer : m.role === "operator" ? "Operator" : "AI"}</span>
              <p>${m.content}</p></li>`,
          )}
      </ol>
      ${
        sms
          ? html`<p class="hint" id="reply-hint">Your reply is sent to ${conversation.customerIdentifier ?? "the customer"} as a
              text message (SMS) from the assistant's number, and billed per message segment.</p>`
          : nothing
      }
      <form class="row" @submit=${this.reply}>
        <label class="sr-only" for="reply">Reply as operator</label>
        <textarea id="reply" name="content" rows="2" style="flex:1; min-height: 3rem"
          placeholder=${sms ? "Reply by text message" : "Reply to the visitor"} aria-describedby=${sms ? "reply-hint" : nothing}
          @keydown=${(event: KeyboardEvent) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              (event.target as HTMLTextAreaElement).form?.requestSubmit();
            }
          }}></textarea>
        <button class="primary" type="submit">${sms ? "Send text" : "Send reply"}</button>
      </form>
    `;
  }

  static override styles = [
    ...Screen.styles,
    css`
      .inbox {
        display: flex;
        flex-wrap: wrap;
        gap: 1rem;
      }
      /* min-width 0: a long preview or name is cut, rather than widening the list past the page. */
      .list {
        flex: 1 1 14rem;
        min-width: 0;
      }
      .list ul {
        list-style: none;
        padding: 0;
        margin: 0;
      }
      .list a {
        display: block;
        padding: 0.5rem;
        border-bottom: 1px solid var(--_border);
        text-decoration: none;
        color: var(--_text);
        overflow-wrap: anywhere;
      }
      .list a[aria-current="true"] {
        background: var(--_surface);
      }
      .thread {
        flex: 3 1 20rem;
        min-width: 0;
      }
      .messages {
        list-style: none;
        padding: 0;
        max-height: 60vh;
        overflow-y: auto;
      }
      .msg {
        margin: 0.5rem 0;
        padding: 0.5rem 0.75rem;
        border-radius: var(--_radius);
        background: var(--_surface);
        max-width: 85%;
      }
      .msg p {
        margin: 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .msg.user {
        margin-right: auto;
      }
      .msg.assistant,
      .msg.operator {
        margin-left: auto;
        background: var(--_accent);
        color: var(--_on-accent);
      }
      .dot {
        display: inline-block;
        width: 0.6rem;
        height: 0.6rem;
        border-radius: 50%;
        background: var(--_accent);
      }
      .preview,
      .when {
        display: block;
      }
      .preview {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .badge.waiting {
        font-weight: 700;
        border-color: var(--_link);
        color: var(--_link);
      }
      .waiting-note {
        font-weight: 700;
        color: var(--_link);
      }
      .badge.sms {
        font-weight: 700;
        border-color: var(--_link);
      }
      .who {
        font-size: 0.8rem;
        font-weight: 700;
      }
    `,
  ];
}
