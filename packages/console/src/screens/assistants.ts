import { html, nothing } from "lit";
import { AssistantsQuery } from "../api/operations.ts";
import type { ConsoleAssistantsQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { formatDate, Screen } from "../screen.ts";

/** The account's assistants, searchable, with a link to create one. */
export class VxAssistants extends Screen {
  static override properties = { page: { state: true }, error: { state: true } };
  declare page: ConsoleAssistantsQuery["assistants"] | null;
  declare error: string | null;
  #search = "";

  constructor() {
    super();
    this.page = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load(1));
  }

  private async load(page: number): Promise<void> {
    try {
      this.page = (
        await this.api.request(AssistantsQuery, { page, search: this.#search || null })
      ).assistants;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  override render() {
    const page = this.page;
    return html`
      <div class="row"><h1>Assistants</h1><a class="badge" href=${href("assistants", "new")}>New assistant</a></div>
      <form class="row" role="search" @submit=${(event: Event) => {
        event.preventDefault();
        this.#search = String(new FormData(event.target as HTMLFormElement).get("q") ?? "");
        this.run(this.load(1));
      }}>
        <label class="sr-only" for="q">Search assistants</label>
        <input id="q" name="q" type="search" placeholder="Search by name" style="max-width:20rem" />
        <button type="submit">Search</button>
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        !page
          ? html`<p role="status">Loading…</p>`
          : page.items.length === 0
            ? html`<p>No assistants yet. <a href=${href("assistants", "new")}>Create your first assistant</a>.</p>`
            : html`<div class="table-wrap"><table>
                <thead><tr><th>Name</th><th>Type</th><th>Status</th><th>Phone number</th><th>Updated</th></tr></thead>
                <tbody>${page.items.map(
                  (a) => html`<tr>
                    <td><a href=${href("assistants", a.id)}>${a.name}</a></td>
                    <td>${a.type}</td><td>${a.status}</td><td>${a.phoneNumber?.phoneNumber ?? "—"}</td>
                    <td>${formatDate(a.updatedAt)}</td>
                  </tr>`,
                )}</tbody></table></div>
              ${this.pager(page.pageInfo)}`
      }
    `;
  }

  private pager(info: { currentPage: number; lastPage: number; total: number }) {
    return html`<p class="row muted">
      ${info.total} assistant(s) · page ${info.currentPage} of ${info.lastPage}
      <button ?disabled=${info.currentPage <= 1} @click=${() => this.load(info.currentPage - 1)}>Previous</button>
      <button ?disabled=${info.currentPage >= info.lastPage} @click=${() => this.load(info.currentPage + 1)}>Next</button>
    </p>`;
  }
}
