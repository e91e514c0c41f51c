import { html } from "lit";
import type { ConsoleAssistantsQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { DataScreen, emptyState, formatDate, pager } from "../screen.ts";
import { assistantStatus } from "../status-words.ts";
import { AssistantsQuery } from "./assistants.operations.ts";

/** The account's assistants, searchable, with a link to create one. */
export class VxAssistants extends DataScreen<ConsoleAssistantsQuery["assistants"]> {
  #search = "";

  protected override async fetch(page: number) {
    return (await this.api.request(AssistantsQuery, { page, search: this.#search || null })).assistants;
  }

  override render() {
    return html`
      <div class="row"><h1>Assistants</h1><a class="badge" href=${href("assistants", "new")}>New assistant</a></div>
      <form class="row" role="search" @submit=${(event: Event) => {
        event.preventDefault();
        this.#search = String(new FormData(event.target as HTMLFormElement).get("q") ?? "");
        void this.load(1);
      }}>
        <label class="sr-only" for="q">Search assistants</label>
        <input id="q" name="q" type="search" placeholder="Search by name" style="max-width:20rem" />
        <button type="submit">Search</button>
      </form>
      ${this.loaded((page) =>
        page.items.length === 0
          ? this.#search
            ? emptyState(
                `No assistant's name contains “${this.#search}”.`,
                "Search for another name, or clear the search.",
              )
            : emptyState(
                "No assistants yet.",
                html`<a href=${href("assistants", "new")}>Create your first assistant</a>: it answers calls, your website's chat and texts.`,
              )
          : html`<div class="table-wrap"><table>
              <thead><tr><th>Name</th><th>Type</th><th>Status</th><th>Phone number</th><th>Updated</th></tr></thead>
              <tbody>${page.items.map(
                (a) => html`<tr>
                  <td><a href=${href("assistants", a.id)}>${a.name}</a></td>
                  <td>${a.type}</td><td>${assistantStatus(a.status)}</td><td>${a.phoneNumber?.phoneNumber ?? "—"}</td>
                  <td>${formatDate(a.updatedAt)}</td>
                </tr>`,
              )}</tbody></table></div>
            ${pager(page.pageInfo, ["assistant", "assistants"], (next) => void this.load(next))}`,
      )}
    `;
  }
}
