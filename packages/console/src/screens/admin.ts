import { html, nothing } from "lit";
import type { ConsolePlatformAccountsQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { DataScreen, fieldError, formatDate, formMessage, money, pager, Screen } from "../screen.ts";
import {
  CreatePlatformAccountMutation,
  CreditAccountMutation,
  PlatformAccountsQuery,
  SuspendAccountMutation,
} from "./admin.operations.ts";

/**
 * Platform administration: every account, with credit and suspension. The server alone decides who
 * is a platform operator; anyone else sees its refusal here rather than an empty list.
 */
export class VxAdmin extends DataScreen<ConsolePlatformAccountsQuery["platformAccounts"]> {
  static override properties = { notice: { state: true } };
  declare notice: string | null;
  #search = "";

  constructor() {
    super();
    this.notice = null;
  }

  protected override async fetch(page: number) {
    return (await this.api.request(PlatformAccountsQuery, { page, search: this.#search || null }))
      .platformAccounts;
  }

  private create(event: SubmitEvent): Promise<void> {
    return this.submit(event, async (data) => {
      await this.api.request(CreatePlatformAccountMutation, {
        input: {
          email: String(data.get("email") ?? ""),
          name: String(data.get("name") ?? "") || null,
          password: String(data.get("password") ?? ""),
          operator: data.get("operator") === "on",
        },
      });
      this.notice = "Account created.";
      this.page = 1;
    });
  }

  private credit(event: SubmitEvent, accountId: number): Promise<void> {
    return this.submit(event, async (data) => {
      const { creditAccount } = await this.api.request(CreditAccountMutation, {
        accountId,
        amount: String(data.get("amount") ?? ""),
        note: String(data.get("note") ?? "") || null,
      });
      this.notice = `Account ${accountId} credited: balance ${money(creditAccount.balance)}.`;
    });
  }

  private async suspend(accountId: number, suspended: boolean): Promise<void> {
    if (suspended && !confirm("Suspend this account? Its keys, sessions, widget and calls are refused."))
      return;
    await this.act(() => this.api.request(SuspendAccountMutation, { accountId, suspended }));
  }

  override render() {
    if (this.failure?.code === "FORBIDDEN") {
      return html`<h1>Administration</h1>
        <p class="error" role="alert">Only platform operators may use the administration section.</p>`;
    }
    return html`
      <h1>Administration</h1>
      ${this.notice ? html`<p class="ok" role="status">${this.notice}</p>` : nothing}
      ${formMessage(this.errors)}
      <form class="row" role="search" @submit=${(event: Event) => {
        event.preventDefault();
        this.#search = String(new FormData(event.target as HTMLFormElement).get("q") ?? "");
        void this.load(1);
      }}>
        <label class="sr-only" for="q">Search accounts</label>
        <input id="q" name="q" type="search" placeholder="Name or email" style="max-width: 20rem" />
        <button type="submit">Search</button>
      </form>
      ${this.loaded(
        (page) => html`<div class="table-wrap"><table aria-label="Accounts">
              <thead><tr><th>Account</th><th>Owner</th><th>Balance</th><th>Created</th><th>State</th><th>Credit</th></tr></thead>
              <tbody>${page.items.map(
                (a) => html`<tr>
                  <td><a href=${href("admin", a.id)}>${a.name}</a> ${a.isOperator ? html`<span class="badge">operator</span>` : nothing}</td>
                  <td>${a.ownerEmail ?? "—"}</td><td>${money(a.balance)}</td><td>${formatDate(a.createdAt)}</td>
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
            ${pager(page.pageInfo, ["account", "accounts"], (next) => void this.load(next))}`,
      )}
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

/** One account as an operator sees it: its ledger. */
export class VxAdminAccount extends Screen {
  static override properties = { accountId: { attribute: false } };
  declare accountId: number;

  override render() {
    return html`<p><a href=${href("admin")}>← Administration</a></p>
      <h1>Account ${this.accountId}</h1>
      <h2>Ledger</h2>
      <vx-ledger .accountId=${this.accountId}></vx-ledger>`;
  }
}
