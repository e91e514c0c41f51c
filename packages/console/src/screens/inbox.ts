import { html, nothing } from "lit";
import { ConversationActivitySubscription } from "../api/operations.ts";
import { loading, Screen } from "../screen.ts";
import {
  AddConversationNoteMutation,
  AssignConversationMutation,
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
} from "./inbox.operations.ts";
import { inboxStyles } from "./inbox.styles.ts";
import {
  DEFAULT_FILTER,
  type InboxFilter,
  type Listed,
  listVariables,
  renderEmpty,
  renderFilters,
  renderListed,
} from "./inbox-list.ts";
import { type Message, type Open, renderThread } from "./inbox-thread.ts";

/**
 * The team inbox: conversations filtered server-side (status, waiting, assignee, assistant, channel,
 * text), newest activity first; one open on the side, live, to take over and answer (in an SMS
 * conversation the answer is sent as a text), resolve or reopen, assign, and note privately. The
 * filters and the list are drawn by inbox-list.ts, the open conversation by inbox-thread.ts; this
 * element keeps the state, the live subscriptions and the actions.
 */
export class VxInbox extends Screen {
  static override properties = {
    conversationId: { attribute: false },
    list: { state: true },
    total: { state: true },
    open: { state: true },
    error: { state: true },
    waiting: { state: true },
    filter: { state: true },
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
  declare filter: InboxFilter;
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
    this.filter = DEFAULT_FILTER;
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

  private loadList(): Promise<void> {
    if (this.#loading) {
      this.#reloadWanted = true;
      return this.#loading;
    }
    this.#loading = (async () => {
      try {
        do {
          this.#reloadWanted = false;
          const { conversations } = await this.api.request(ConversationsQuery, listVariables(this.filter));
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

  private applyFilter(filter: InboxFilter): void {
    this.filter = filter;
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
      ${renderFilters(this.filter, this.assistants, (filter) => this.applyFilter(filter))}
      <div class="inbox">
        <nav aria-label="Conversations" class="list">
          ${
            this.list === null
              ? loading
              : this.list.length === 0
                ? renderEmpty(this.filter)
                : html`<p class="muted count" role="status">${this.total} ${this.total === 1 ? "conversation" : "conversations"}</p>
                  <ul>${this.list.map((c) => renderListed(c, this.conversationId))}</ul>`
          }
        </nav>
        <section class="thread" aria-label="Conversation">
          ${
            this.open
              ? renderThread(
                  this.open,
                  { me: this.me, members: this.members },
                  {
                    setStatus: (resolved) => void this.setStatus(resolved),
                    assign: (userId) => void this.assign(userId),
                    setAi: (takeOver) => void this.setAi(takeOver),
                    reply: (event) => void this.reply(event),
                    note: (event) => void this.note(event),
                  },
                )
              : html`<p class="muted">Choose a conversation.</p>`
          }
        </section>
      </div>
    `;
  }

  static override styles = [...Screen.styles, inboxStyles];
}
