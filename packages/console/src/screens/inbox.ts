import { css, html, nothing } from "lit";
import {
  AddConversationNoteMutation,
  AssignConversationMutation,
  ConversationActivitySubscription,
  ConversationMessageSubscription,
  ConversationQuery,
  ConversationsQuery,
  HandBackMutation,
  InboxViewerQuery,
  MarkConversationReadMutation,
  ReopenConversationMutation,
  ResolveConversationMutation,
  SendOperatorMessageMutation,
  TakeOverMutation,
  WaitingForHumanQuery,
} from "../api/operations.ts";
import type {
  ConsoleConversationQuery,
  ConsoleConversationsQuery,
  ConsoleConversationsQueryVariables,
  ConversationChannel,
} from "../generated/graphql.ts";
import { href } from "../router.ts";
import { emptyState, formatDate, loading, Screen } from "../screen.ts";

type Open = ConsoleConversationQuery["conversation"];
type Message = Open["messages"][number];
type Note = Open["notes"][number];
type Visitor = NonNullable<Message["visitor"]>;
type Listed = ConsoleConversationsQuery["conversations"]["items"][number];

/** Which conversations the list shows (each one server-side filter of `conversations`). */
const VIEWS = {
  open: ["Open", { status: "open" }],
  waiting: ["Waiting for a person", { waitingForHuman: true, status: "open" }],
  mine: ["Assigned to me", { assignedToMe: true, status: "open" }],
  unassigned: ["Unassigned", { unassigned: true, status: "open" }],
  unread: ["Unread", { unreadOnly: true }],
  resolved: ["Resolved", { status: "resolved" }],
  all: ["All", {}],
} as const satisfies Record<string, [string, ConsoleConversationsQueryVariables]>;
type View = keyof typeof VIEWS;

/** The channels a person answers by default: website chats and text messages. */
const CHANNELS: Record<string, [label: string, channels: ConversationChannel[] | null]> = {
  people: ["Widget and SMS", ["widget", "sms"]],
  widget: ["Widget", ["widget"]],
  sms: ["SMS", ["sms"]],
  test: ["Tests in the console", ["test"]],
  api: ["API (generate-reply)", ["api"]],
  all: ["All channels", null],
};

function isSms(conversation: { channel: string }): boolean {
  return conversation.channel === "sms";
}

const regions = new Intl.DisplayNames(undefined, { type: "region" });

function countryName(code: string): string {
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

/** "shop.example/pricing · Chrome 131 on macOS · Germany": what is known of where a visitor wrote from. */
function visitorLine(visitor: Visitor): string {
  const page = visitor.pageUrl ? new URL(visitor.pageUrl) : null;
  return [
    page ? `${page.host}${page.pathname}` : null,
    visitor.browser,
    visitor.country ? countryName(visitor.country) : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** Messages and private notes in the order they were written. */
function timeline(conversation: Open): ({ kind: "message"; item: Message } | { kind: "note"; item: Note })[] {
  return [
    ...conversation.messages
      .filter((m) => m.role !== "system")
      .map((item) => ({ kind: "message" as const, item })),
    ...conversation.notes.map((item) => ({ kind: "note" as const, item })),
  ].sort((a, b) => (a.item.createdAt < b.item.createdAt ? -1 : a.item.createdAt > b.item.createdAt ? 1 : 0));
}

/**
 * The team inbox: conversations filtered server-side (status, waiting, assignee, assistant, channel,
 * text), newest activity first; one open on the side, live, to take over and answer (in an SMS
 * conversation the answer is sent as a text), resolve or reopen, assign, and note privately.
 */
export class VxInbox extends Screen {
  static override properties = {
    conversationId: { attribute: false },
    list: { state: true },
    total: { state: true },
    open: { state: true },
    error: { state: true },
    waiting: { state: true },
    view: { state: true },
    channel: { state: true },
    assistantId: { state: true },
    search: { state: true },
    me: { state: true },
    members: { state: true },
    assistants: { state: true },
  };
  declare conversationId: string | null;
  declare list: Listed[] | null;
  declare total: number;
  declare open: Open | null;
  declare error: string | null;
  /** Conversations of the account waiting for a person (request_human); null before it is known. */
  declare waiting: number | null;
  declare view: View;
  declare channel: keyof typeof CHANNELS;
  declare assistantId: number | null;
  declare search: string;
  /** The signed-in member ("Assign to me"); null before it is known. */
  declare me: { id: number; name: string } | null;
  /** The account's members, to assign a conversation to (`members`). */
  declare members: { id: number; name: string }[];
  declare assistants: { id: number; name: string }[];
  #unsubscribeOpen: (() => void) | null = null;
  /** A list load in flight, and whether another is wanted after it (events in a burst load once more). */
  #loading: Promise<void> | null = null;
  #reloadWanted = false;

  constructor() {
    super();
    this.conversationId = null;
    this.list = null;
    this.total = 0;
    this.open = null;
    this.error = null;
    this.waiting = null;
    this.view = "open";
    this.channel = "people";
    this.assistantId = null;
    this.search = "";
    this.me = null;
    this.members = [];
    this.assistants = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.loadList());
    this.run(this.loadWaiting());
    this.run(
      this.api.request(InboxViewerQuery, {}).then(({ viewer, members, assistants }) => {
        this.me = { id: viewer.id, name: viewer.name };
        this.members = members;
        this.assistants = assistants.items;
      }),
    );
    this.track(() => this.#unsubscribeOpen?.());
    this.track(
      this.api.subscribe(ConversationActivitySubscription, {}, ({ conversationActivity }) => {
        const { kind, conversation: updated, note } = conversationActivity;
        const isOpen = updated.id === this.open?.id;
        if (isOpen && this.open) {
          this.open = {
            ...this.open,
            waitingForHuman: updated.waitingForHuman,
            aiDisabled: updated.aiDisabled,
            status: updated.status,
            assignee: updated.assignee,
            visitor: updated.visitor,
            notes:
              note && !this.open.notes.some((n) => n.id === note.id)
                ? [...this.open.notes, note]
                : this.open.notes,
          };
          if (updated.unread) this.run(this.api.request(MarkConversationReadMutation, { id: updated.id }));
        }
        if (kind === "read" && !isOpen) {
          this.list =
            this.list?.map((c) => (c.id === updated.id ? { ...c, unread: updated.unread } : c)) ?? null;
          return;
        }
        // Whether it still belongs in this view is the server's to say: the list is asked for again.
        this.run(this.loadList());
        if (kind === "conversation" || kind === "status") this.run(this.loadWaiting());
      }),
    );
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has("conversationId")) this.run(this.openConversation(this.conversationId));
  }

  private variables(): ConsoleConversationsQueryVariables {
    return {
      page: 1,
      ...VIEWS[this.view][1],
      channels: CHANNELS[this.channel]?.[1] ?? null,
      assistantId: this.assistantId,
      search: this.search.length >= 2 ? this.search : null,
    };
  }

  private loadList(): Promise<void> {
    if (this.#loading) {
      this.#reloadWanted = true;
      return this.#loading;
    }
    this.#loading = (async () => {
      try {
        do {
          this.#reloadWanted = false;
          const { conversations } = await this.api.request(ConversationsQuery, this.variables());
          const openId = this.open?.id;
          this.list = conversations.items.map((c) => (c.id === openId ? { ...c, unread: false } : c));
          this.total = conversations.pageInfo.total;
          this.error = null;
        } while (this.#reloadWanted);
      } finally {
        this.#loading = null;
      }
    })();
    return this.#loading;
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

  private async act(task: () => Promise<void>): Promise<void> {
    try {
      await task();
      this.error = null;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private setAi(takeOver: boolean): Promise<void> {
    return this.act(async () => {
      if (!this.open) return;
      const result = takeOver
        ? (await this.api.request(TakeOverMutation, { id: this.open.id })).takeOverConversation
        : (await this.api.request(HandBackMutation, { id: this.open.id })).handBackConversation;
      this.open = { ...this.open, aiDisabled: result.aiDisabled, waitingForHuman: result.waitingForHuman };
      this.run(this.loadWaiting());
    });
  }

  private setStatus(resolved: boolean): Promise<void> {
    return this.act(async () => {
      if (!this.open) return;
      const result = resolved
        ? (await this.api.request(ResolveConversationMutation, { id: this.open.id })).resolveConversation
        : (await this.api.request(ReopenConversationMutation, { id: this.open.id })).reopenConversation;
      this.open = { ...this.open, status: result.status, resolvedAt: result.resolvedAt };
    });
  }

  private assign(userId: number | null): Promise<void> {
    return this.act(async () => {
      if (!this.open) return;
      const { assignConversation } = await this.api.request(AssignConversationMutation, {
        id: this.open.id,
        userId,
      });
      this.open = { ...this.open, assignee: assignConversation.assignee };
    });
  }

  private async reply(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const content = String(new FormData(form).get("content") ?? "").trim();
    if (!content || !this.open) return;
    await this.act(async () => {
      const { sendOperatorMessage } = await this.api.request(SendOperatorMessageMutation, {
        conversationId: this.open!.id,
        content,
      });
      form.reset();
      this.addMessage({ ...sendOperatorMessage, visitor: null });
    });
  }

  private async note(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const content = String(new FormData(form).get("note") ?? "").trim();
    if (!content || !this.open) return;
    await this.act(async () => {
      const { addConversationNote } = await this.api.request(AddConversationNoteMutation, {
        conversationId: this.open!.id,
        content,
      });
      form.reset();
      if (this.open && !this.open.notes.some((n) => n.id === addConversationNote.id)) {
        this.open = { ...this.open, notes: [...this.open.notes, addConversationNote] };
      }
    });
  }

  private filter(event: SubmitEvent | Event): void {
    event.preventDefault();
    const form = (event.target as HTMLElement).closest("form") as HTMLFormElement;
    const data = new FormData(form);
    this.view = String(data.get("view")) as View;
    this.channel = String(data.get("channel"));
    const assistant = String(data.get("assistant") ?? "");
    this.assistantId = assistant ? Number(assistant) : null;
    this.search = String(data.get("search") ?? "").trim();
    this.list = null;
    this.run(this.loadList());
  }

  override render() {
    return html`
      <div class="row"><h1>Inbox</h1>
        ${
          this.waiting
            ? html`<span class="badge waiting" role="status">${this.waiting} waiting for a person</span>`
            : nothing
        }
        <button type="button" @click=${() => this.run(this.loadList())}>Refresh</button></div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.renderFilters()}
      <div class="inbox">
        <nav aria-label="Conversations" class="list">
          ${
            this.list === null
              ? loading
              : this.list.length === 0
                ? this.renderEmpty()
                : html`<p class="muted count" role="status">${this.total} ${this.total === 1 ? "conversation" : "conversations"}</p>
                  <ul>${this.list.map((c) => this.renderListed(c))}</ul>`
          }
        </nav>
        <section class="thread" aria-label="Conversation">
          ${this.open ? this.renderThread(this.open) : html`<p class="muted">Choose a conversation.</p>`}
        </section>
      </div>
    `;
  }

  private renderFilters() {
    return html`<form class="filters" role="search" aria-label="Filter conversations"
        @submit=${this.filter} @change=${(event: Event) => {
          if ((event.target as HTMLElement).tagName === "SELECT") this.filter(event);
        }}>
      <div class="field"><label for="inbox-view">Show</label>
        <select id="inbox-view" name="view">${Object.entries(VIEWS).map(
          ([value, [label]]) =>
            html`<option value=${value} ?selected=${value === this.view}>${label}</option>`,
        )}</select></div>
      <div class="field"><label for="inbox-channel">Channel</label>
        <select id="inbox-channel" name="channel">${Object.entries(CHANNELS).map(
          ([value, [label]]) =>
            html`<option value=${value} ?selected=${value === this.channel}>${label}</option>`,
        )}</select></div>
      <div class="field"><label for="inbox-assistant">Assistant</label>
        <select id="inbox-assistant" name="assistant">
          <option value="" ?selected=${this.assistantId === null}>All assistants</option>
          ${this.assistants.map(
            (a) => html`<option value=${a.id} ?selected=${a.id === this.assistantId}>${a.name}</option>`,
          )}
        </select></div>
      <div class="field"><label for="inbox-search">Search messages</label>
        <input id="inbox-search" type="search" name="search" .value=${this.search} minlength="2" maxlength="100"
          placeholder="Words in a message"></div>
      <button type="submit">Search</button>
    </form>`;
  }

  private renderEmpty() {
    const filtered = this.view !== "open" || this.channel !== "people" || this.assistantId || this.search;
    return filtered
      ? emptyState(
          "No conversation matches these filters.",
          html`Choose "Open" and "Widget and SMS", or clear the search, to see every open conversation.`,
        )
      : emptyState(
          "No open widget or SMS conversations.",
          html`They appear here, live, when a visitor writes in an assistant's chat on your website or a customer texts one of your numbers. <a href=${href("assistants")}>Open an assistant</a> to get its widget's embed code and try it.`,
        );
  }

  private renderListed(c: Listed) {
    return html`<li>
      <a href=${href("inbox", c.id)} aria-current=${c.id === this.conversationId ? "true" : "false"}>
        ${c.unread ? html`<span class="dot" aria-label="Unread"></span>` : nothing}
        ${isSms(c) ? html`<span class="badge sms">SMS</span>` : nothing}
        <strong>${c.customerIdentifier ?? c.origin ?? "Visitor"}</strong>
        ${c.status === "resolved" ? html`<span class="badge">resolved</span>` : nothing}
        ${c.aiDisabled ? html`<span class="badge">taken over</span>` : nothing}
        ${c.waitingForHuman ? html`<span class="badge waiting">wants a person</span>` : nothing}
        <span class="preview">${c.lastMessage?.content ?? ""}</span>
        <span class="muted when">${formatDate(c.lastMessageAt ?? c.updatedAt)}${
          c.assignee ? html` · <span class="assignee">${c.assignee.name}</span>` : nothing
        }</span>
      </a></li>`;
  }

  /** A teammate other than the current assignee and the viewer (who has "Assign to me"). */
  private renderAssignTo(conversation: Open) {
    const others = this.members.filter(
      (member) => member.id !== this.me?.id && member.id !== conversation.assignee?.id,
    );
    if (others.length === 0) return nothing;
    return html`<label for="assign-to">Assign to</label>
      <select id="assign-to" data-testid="assign-to" @change=${(event: Event) => {
        const select = event.target as HTMLSelectElement;
        if (select.value) void this.assign(Number(select.value));
        select.value = "";
      }}>
        <option value="">Choose a teammate…</option>
        ${others.map((member) => html`<option value=${member.id}>${member.name}</option>`)}
      </select>`;
  }

  private renderThread(conversation: Open) {
    const sms = isSms(conversation);
    const customer = sms ? "Customer" : "Visitor";
    const mine = this.me !== null && conversation.assignee?.id === this.me.id;
    const resolved = conversation.status === "resolved";
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
        <span class="badge status" data-testid="status">${resolved ? "Resolved" : "Open"}</span>
        ${
          resolved
            ? html`<button type="button" @click=${() => this.setStatus(false)}>Reopen</button>`
            : html`<button type="button" @click=${() => this.setStatus(true)}>Resolve</button>`
        }
        <span class="assigned" data-testid="assignee">${
          conversation.assignee
            ? html`Assigned to <strong>${mine ? "you" : conversation.assignee.name}</strong>`
            : "Unassigned"
        }</span>
        ${mine || !this.me ? nothing : html`<button type="button" @click=${() => this.assign(this.me!.id)}>Assign to me</button>`}
        ${conversation.assignee ? html`<button type="button" @click=${() => this.assign(null)}>Unassign</button>` : nothing}
        ${this.renderAssignTo(conversation)}
      </div>
      <div class="row">
        <span class="badge">${conversation.aiDisabled ? "You are answering (AI off)" : "The AI is answering"}</span>
        ${
          conversation.aiDisabled
            ? html`<button type="button" @click=${() => this.setAi(false)}>Hand back to AI</button>`
            : html`<button type="button" class="primary" @click=${() => this.setAi(true)}>Take over</button>`
        }
        <vx-make-test .conversationId=${conversation.id}></vx-make-test>
      </div>
      ${conversation.visitor ? this.renderVisitor(conversation.visitor) : nothing}
      <ol class="messages" role="log" aria-live="polite" aria-label="Messages">
        ${timeline(conversation).map((entry) =>
          entry.kind === "note"
            ? html`<li class="msg note">
                <span class="who">Private note${entry.item.author ? html` by ${entry.item.author.name}` : nothing}</span>
                <p>${entry.item.content}</p>
                <time class="at" datetime=${entry.item.createdAt}>${formatDate(entry.item.createdAt)}</time></li>`
            : html`<li class="msg ${entry.item.role}">
                <span class="who">${entry.item.role === "user" ? customer : entry.item.role === "operator" ? "Operator" : "AI"}</span>
                <p>${entry.item.content}</p>
                <time class="at" datetime=${entry.item.createdAt}>${formatDate(entry.item.createdAt)}</time>
                ${entry.item.visitor ? html`<span class="at from">${visitorLine(entry.item.visitor)}</span>` : nothing}</li>`,
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
      <form class="row" @submit=${this.note}>
        <label class="sr-only" for="note">Private note</label>
        <textarea id="note" name="note" rows="1" style="flex:1; min-height: 2.5rem" aria-describedby="note-hint"
          placeholder="Private note for your team"></textarea>
        <button type="submit">Add note</button>
      </form>
      <p class="hint" id="note-hint">Notes are seen by your team only: never by the customer, nor by the AI.</p>
    `;
  }

  private renderVisitor(visitor: Visitor) {
    return html`<dl class="visitor" aria-label="Visitor">
      ${visitor.pageUrl ? html`<div><dt>Page</dt><dd><a href=${visitor.pageUrl} target="_blank" rel="noopener noreferrer">${visitor.pageUrl}</a></dd></div>` : nothing}
      ${visitor.browser ? html`<div><dt>Browser</dt><dd>${visitor.browser}</dd></div>` : nothing}
      <div><dt>Country</dt><dd>${visitor.country ? countryName(visitor.country) : "Unknown"}</dd></div>
    </dl>`;
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
      .filters {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: flex-end;
        margin-bottom: 1rem;
      }
      .filters .field {
        display: flex;
        flex-direction: column;
        font-size: 0.9rem;
        min-width: 0;
      }
      .msg.note {
        margin-left: auto;
        margin-right: auto;
        background: var(--_surface);
        border: 2px dashed var(--_link);
        color: var(--_text);
      }
      .at {
        display: block;
        font-size: 0.75rem;
        opacity: 0.9;
        overflow-wrap: anywhere;
      }
      .visitor {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1.5rem;
        margin: 0.5rem 0;
        font-size: 0.9rem;
      }
      .visitor dt {
        font-weight: 700;
      }
      .visitor dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
    `,
  ];
}
