import { html, nothing } from "lit";
import type { ConsoleConversationQuery } from "../generated/graphql.ts";
import { formatDate } from "../screen.ts";
import { isSms } from "./inbox-list.ts";

export type Open = ConsoleConversationQuery["conversation"];
export type Message = Open["messages"][number];
type Note = Open["notes"][number];
type Visitor = NonNullable<Message["visitor"]>;
type Member = { id: number; name: string };

/** What the open conversation's buttons and forms do; the screen runs them against the API. */
export interface ThreadActions {
  setStatus(resolved: boolean): void;
  assign(userId: number | null): void;
  setAi(takeOver: boolean): void;
  reply(event: SubmitEvent): void;
  note(event: SubmitEvent): void;
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
 * The open conversation: its status, assignee and who answers (with their buttons), where the visitor
 * wrote from, the messages and notes, the reply form (a text message in an SMS conversation) and the
 * private note form. `me` is the signed-in member (null before it is known), `members` the account's.
 */
export function renderThread(
  conversation: Open,
  people: { me: Member | null; members: Member[] },
  actions: ThreadActions,
) {
  const { me } = people;
  const sms = isSms(conversation);
  const customer = sms ? "Customer" : "Visitor";
  const mine = me !== null && conversation.assignee?.id === me.id;
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
            ? html`<button type="button" @click=${() => actions.setStatus(false)}>Reopen</button>`
            : html`<button type="button" @click=${() => actions.setStatus(true)}>Resolve</button>`
        }
        <span class="assigned" data-testid="assignee">${
          conversation.assignee
            ? html`Assigned to <strong>${mine ? "you" : conversation.assignee.name}</strong>`
            : "Unassigned"
        }</span>
        ${mine || !me ? nothing : html`<button type="button" @click=${() => actions.assign(me.id)}>Assign to me</button>`}
        ${conversation.assignee ? html`<button type="button" @click=${() => actions.assign(null)}>Unassign</button>` : nothing}
        ${renderAssignTo(conversation, people, actions)}
      </div>
      <div class="row">
        <span class="badge">${conversation.aiDisabled ? "You are answering (AI off)" : "The AI is answering"}</span>
        ${
          conversation.aiDisabled
            ? html`<button type="button" @click=${() => actions.setAi(false)}>Hand back to AI</button>`
            : html`<button type="button" class="primary" @click=${() => actions.setAi(true)}>Take over</button>`
        }
        <vx-make-test .conversationId=${conversation.id}></vx-make-test>
      </div>
      ${conversation.visitor ? renderVisitor(conversation.visitor) : nothing}
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
      <form class="row" @submit=${actions.reply}>
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
      <form class="row" @submit=${actions.note}>
        <label class="sr-only" for="note">Private note</label>
        <textarea id="note" name="note" rows="1" style="flex:1; min-height: 2.5rem" aria-describedby="note-hint"
          placeholder="Private note for your team"></textarea>
        <button type="submit">Add note</button>
      </form>
      <p class="hint" id="note-hint">Notes are seen by your team only: never by the customer, nor by the AI.</p>
    `;
}

/** A teammate other than the current assignee and the viewer (who has "Assign to me"). */
function renderAssignTo(
  conversation: Open,
  { me, members }: { me: Member | null; members: Member[] },
  actions: ThreadActions,
) {
  const others = members.filter((member) => member.id !== me?.id && member.id !== conversation.assignee?.id);
  if (others.length === 0) return nothing;
  return html`<label for="assign-to">Assign to</label>
      <select id="assign-to" data-testid="assign-to" @change=${(event: Event) => {
        const select = event.target as HTMLSelectElement;
        if (select.value) actions.assign(Number(select.value));
        select.value = "";
      }}>
        <option value="">Choose a teammate…</option>
        ${others.map((member) => html`<option value=${member.id}>${member.name}</option>`)}
      </select>`;
}

function renderVisitor(visitor: Visitor) {
  return html`<dl class="visitor" aria-label="Visitor">
      ${visitor.pageUrl ? html`<div><dt>Page</dt><dd><a href=${visitor.pageUrl} target="_blank" rel="noopener noreferrer">${visitor.pageUrl}</a></dd></div>` : nothing}
      ${visitor.browser ? html`<div><dt>Browser</dt><dd>${visitor.browser}</dd></div>` : nothing}
      <div><dt>Country</dt><dd>${visitor.country ? countryName(visitor.country) : "Unknown"}</dd></div>
    </dl>`;
}
