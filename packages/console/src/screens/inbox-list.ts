import { html, nothing } from "lit";
import type {
  ConsoleConversationsQuery,
  ConsoleConversationsQueryVariables,
  ConversationChannel,
} from "../generated/graphql.ts";
import { href } from "../router.ts";
import { emptyState, formatDate } from "../screen.ts";

export type Listed = ConsoleConversationsQuery["conversations"]["items"][number];

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

/** What the list is filtered by, as the filter form sets it. */
export interface InboxFilter {
  view: View;
  channel: keyof typeof CHANNELS;
  assistantId: number | null;
  search: string;
}

/** Open widget and SMS conversations of every assistant. */
export const DEFAULT_FILTER: InboxFilter = { view: "open", channel: "people", assistantId: null, search: "" };

export function isSms(conversation: { channel: string }): boolean {
  return conversation.channel === "sms";
}

/** The first page of `conversations` that `filter` asks for. */
export function listVariables(filter: InboxFilter): ConsoleConversationsQueryVariables {
  return {
    page: 1,
    ...VIEWS[filter.view][1],
    channels: CHANNELS[filter.channel]?.[1] ?? null,
    assistantId: filter.assistantId,
    search: filter.search.length >= 2 ? filter.search : null,
  };
}

function filterOf(form: HTMLFormElement): InboxFilter {
  const data = new FormData(form);
  const assistant = String(data.get("assistant") ?? "");
  return {
    view: String(data.get("view")) as View,
    channel: String(data.get("channel")),
    assistantId: assistant ? Number(assistant) : null,
    search: String(data.get("search") ?? "").trim(),
  };
}

/** The filter form: a choice applies at once, the search on submit; `apply` gets the new filter. */
export function renderFilters(
  filter: InboxFilter,
  assistants: { id: number; name: string }[],
  apply: (filter: InboxFilter) => void,
) {
  const submit = (event: Event) => {
    event.preventDefault();
    apply(filterOf((event.target as HTMLElement).closest("form") as HTMLFormElement));
  };
  return html`<form class="filters" role="search" aria-label="Filter conversations"
        @submit=${submit} @change=${(event: Event) => {
          if ((event.target as HTMLElement).tagName === "SELECT") submit(event);
        }}>
      <div class="field"><label for="inbox-view">Show</label>
        <select id="inbox-view" name="view">${Object.entries(VIEWS).map(
          ([value, [label]]) =>
            html`<option value=${value} ?selected=${value === filter.view}>${label}</option>`,
        )}</select></div>
      <div class="field"><label for="inbox-channel">Channel</label>
        <select id="inbox-channel" name="channel">${Object.entries(CHANNELS).map(
          ([value, [label]]) =>
            html`<option value=${value} ?selected=${value === filter.channel}>${label}</option>`,
        )}</select></div>
      <div class="field"><label for="inbox-assistant">Assistant</label>
        <select id="inbox-assistant" name="assistant">
          <option value="" ?selected=${filter.assistantId === null}>All assistants</option>
          ${assistants.map(
            (a) => html`<option value=${a.id} ?selected=${a.id === filter.assistantId}>${a.name}</option>`,
          )}
        </select></div>
      <div class="field"><label for="inbox-search">Search messages</label>
        <input id="inbox-search" type="search" name="search" .value=${filter.search} minlength="2" maxlength="100"
          placeholder="Words in a message"></div>
      <button type="submit">Search</button>
    </form>`;
}

/** An empty list: nothing matches the filters, or nothing is open at all. */
export function renderEmpty(filter: InboxFilter) {
  const filtered =
    filter.view !== "open" || filter.channel !== "people" || filter.assistantId || filter.search;
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

/** A conversation of the list, a link to open it; `current` is the one open. */
export function renderListed(c: Listed, current: string | null) {
  return html`<li>
      <a href=${href("inbox", c.id)} aria-current=${c.id === current ? "true" : "false"}>
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
