import { html, nothing } from "lit";
import { ApiError } from "../api/client.ts";
import {
  CreatePlatformAccountMutation,
  CreditAccountMutation,
  PlatformAccountsQuery,
  SuspendAccountMutation,
} from "../api/operations.ts";
import type { ConsolePlatformAccountsQuery } from "../generated/graphql.ts";
import {
  type FormErrors,
  fieldError,
  formatDate,
  formErrors,
  formMessage,
  noErrors,
  Screen,
} from "../screen.ts";

/**
 * Platform administration: every account, with credit and suspension. The server alone decides who
 * is a platform operator; anyone else sees its refusal here rather than an empty list.
 */
export class VxAdmin extends Screen {
  static override properties = {
    page: { state: true },
    refused: { state: true },
    errors: { state: true },
    notice: { state: true },
  };
  declare page: ConsolePlatformAccountsQuery["platformAccounts"] | null;
  declare refused: boolean;
  declare errors: FormErrors;
  declare notice: string | null;
  #search = "";

  constructor() {
    super();
    this.page = null;
    this.refused = false;
    this.errors = noErrors;
    this.notice = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load(1));
  }

  private async load(page: number): Promise<void> {
    try {
      this.page = (
        await this.api.request(PlatformAccountsQuery, { page, search: this.#search || null })
      ).platformAccounts;
    } catch (error) {
      if (error instanceof ApiError && error.code === "FORBIDDEN") this.refused = true;
      else this.errors = formErrors(error);
    }
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    try {
      await this.api.request(CreatePlatformAccountMutation, {
        input: {
          email: String(data.get("email") ?? ""),
          name: String(data.get("name") ?? "") || null,
          password: String(data.get("password") ?? ""),
          operator: data.get("operator") === "on",
        },
      });
      form.reset();
      this.errors = noErrors;
      this.notice = "Account created.";
      await this.load(1);
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private async credit(event: SubmitEvent, accountId: number): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    try {
      const { creditAccount } = await this.api.request(CreditAccountMutation, {
        accountId,
        amount: String(data.get("amount") ?? ""),
        note: String(data.get("note") ?? "") || null,
      });
      form.reset();
      this.notice = `Account ${accountId} credited: balance ${creditAccount.balance}.`;
      this.errors = noErrors;
      await this.load(this.page?.pageInfo.currentPage ?? 1);
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private async suspend(accountId: number, suspended: boolean): Promise<void> {
    if (suspended && !confirm("Suspend this account? Its keys, sessions, widget and calls are refused."))
      return;
    try {
      await this.api.request(SuspendAccountMutation, { accountId, suspended });
      await this.load(this.page?.pageInfo.currentPage ?? 1);
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  override render() {
    if (this.refused) {
      return html`<h1>Administration</h1>
        <p class="error" role="alert">Only platform operators may use the administration section.</p>`;
    }
    const page = this.page;
    return html`
      <h1>Administration</h1>
      ${this.notice ? html`<p class="ok" role="status">${this.notice}</p>` : nothing}
      ${formMessage(this.errors)}
      <form class="row" role="search" @submit=${(event: Event) => {
        event.preventDefault();
        this.#search = String(new FormData(event.target as HTMLFormElement).get("q") ?? "");
        this.run(this.load(1));
      }}>
        <label class="sr-only" for="q">Search accounts</label>
        <input id="q" name="q" type="search" placeholder="Name or email" style="max-width: 20rem" />
        <button type="submit">Search</button>
      </form>
      ${
        !page
          ? html`<p role="status">Loading…</p>`
          : html`<div class="table-wrap"><table aria-label="Accounts">
              <thead><tr><th>Account</th><th>Owner</th><th>Balance</th><th>Created</th><th>State</th><th>Credit</th></tr></thead>
              <tbody>${page.items.map(
                (a) => html`<tr>
                  <td>${a.name} ${a.isOperator ? html`<span class="badge">operator</span>` : nothing}</td>
                  <td>${a.ownerEmail ?? "—"}</td><td>${a.balance}</td><td>${formatDate(a.createdAt)}</td>
                  <td>${a.suspended ? "suspended" : "active"}
                    <button type="button" class=${a.suspended ? "" : "danger"} @click=${() => this.suspend(a.id, !a.suspended)}>
                      ${a.suspended ? "Reinstate" : "Suspend"}</button></td>
                  <td><form class="row" @submit=${(event: SubmitEvent) => this.credit(event, a.id)}>
                    <label class="sr-only" for="amount-${a.id}">Amount for ${a.name}</label>
                    <input id="amount-${a.id}" name="amount" inputmode="decimal" placeholder="10.00" style="width: 6rem" />
                    <label class="sr-only" for="note-${a.id}">Note</label>
                    <input id="note-${a.id}" name="note" placeholder="Note" style="width: 8rem" />
                    <button type="submit">Credit</button></form></td>
                </tr>`,
              )}</tbody></table></div>
            <p class="row muted">${page.pageInfo.total} account(s) · page ${page.pageInfo.currentPage} of ${page.pageInfo.lastPage}
              <button ?disabled=${page.pageInfo.currentPage <= 1} @click=${() => this.load(page.pageInfo.currentPage - 1)}>Previous</button>
              <button ?disabled=${page.pageInfo.currentPage >= page.pageInfo.lastPage} @click=${() => this.load(page.pageInfo.currentPage + 1)}>Next</button></p>`
      }
      <form class="card" @submit=${this.create} novalidate>
        <h2>New account</h2>
        <div class="grid">
          <div><label for="new-email">Email</label><input id="new-email" name="email" type="email" />${fieldError(this.errors, "email")}</div>
          <div><label for="new-name">Name</label><input id="new-name" name="name" />${fieldError(this.errors, "name")}</div>
          <div><label for="new-password">Password</label><input id="new-password" name="password" type="password" autocomplete="new-password" />${fieldError(this.errors, "password")}</div>
        </div>
        <label class="inline"><input type="checkbox" name="operator" /> Platform operator</label>
        <p><button class="primary" type="submit">Create account</button></p>
      </form>
    `;
  }
}
