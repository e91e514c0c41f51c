import { html, nothing } from "lit";
import { ViewerQuery } from "../api/operations.ts";
import type {
  ConsoleApiKeysQuery,
  ConsolePhoneNumbersQuery,
  ConsoleViewerQuery,
} from "../generated/graphql.ts";
import { DataScreen, emptyState, fieldError, formatDate, formMessage, money } from "../screen.ts";
import { subscriptionStatus } from "../status-words.ts";
import {
  AddPhoneNumberMutation,
  ApiKeysQuery,
  CreateApiKeyMutation,
  DeleteApiKeyMutation,
  PhoneNumbersQuery,
  ReleasePhoneNumberMutation,
} from "./account.operations.ts";
import { BalanceSubscription } from "./ledger.operations.ts";

export class VxPhoneNumbers extends DataScreen<ConsolePhoneNumbersQuery["phoneNumbers"]> {
  protected override async fetch() {
    return (await this.api.request(PhoneNumbersQuery)).phoneNumbers;
  }

  private add(event: SubmitEvent): Promise<void> {
    return this.submit(event, (data) =>
      this.api.request(AddPhoneNumberMutation, {
        input: {
          kind: String(data.get("kind")) as "normal",
          phoneNumber: String(data.get("phoneNumber") ?? ""),
          label: String(data.get("label") ?? "") || null,
          sipUri: String(data.get("sipUri") ?? "") || null,
        },
      }),
    );
  }

  private async release(id: number): Promise<void> {
    if (!confirm("Release this number?")) return;
    await this.act(() => this.api.request(ReleasePhoneNumberMutation, { id }));
  }

  override render() {
    return html`
      <h1>Phone numbers</h1>
      ${this.loaded((items) =>
        items.length === 0
          ? emptyState(
              "No phone numbers yet.",
              "Add one below: a dedicated number takes calls and texts for an assistant and places a campaign's calls.",
            )
          : html`<div class="table-wrap"><table><thead><tr><th>Number</th><th>Label</th><th>Kind</th><th>Subscription</th><th></th></tr></thead>
            <tbody>${items.map(
              (p) => html`<tr><td>${p.phoneNumber}</td><td>${p.label}</td><td>${p.typeLabel}</td>
                <td>${subscriptionStatus(p.releaseRequestedAt ? "releasing" : p.subscriptionStatus)}</td>
                <td>${p.releaseRequestedAt ? nothing : html`<button class="danger" @click=${() => this.release(p.id)} aria-label="Release ${p.phoneNumber}">Release</button>`}</td></tr>`,
            )}</tbody></table></div>`,
      )}
      <form class="card" @submit=${this.add} novalidate>
        <h2>Add a number</h2>
        <div class="grid">
          <div><label for="kind">Kind</label><select id="kind" name="kind"><option value="normal">Dedicated number</option><option value="caller_id">Caller ID</option><option value="sip">SIP</option></select></div>
          <div><label for="pn">Phone number</label><input id="pn" name="phoneNumber" placeholder="+14155550123" />${fieldError(this.errors, "phoneNumber")}</div>
          <div><label for="label">Label</label><input id="label" name="label" />${fieldError(this.errors, "label")}</div>
          <div><label for="sip">SIP URI (SIP only)</label><input id="sip" name="sipUri" />${fieldError(this.errors, "sipUri")}</div>
        </div>
        ${formMessage(this.errors)}
        <p><button class="primary" type="submit">Add number</button></p>
      </form>
    `;
  }
}

export class VxApiKeys extends DataScreen<ConsoleApiKeysQuery["apiKeys"]> {
  static override properties = { token: { state: true } };
  declare token: string | null;

  constructor() {
    super();
    this.token = null;
  }

  protected override async fetch() {
    return (await this.api.request(ApiKeysQuery)).apiKeys;
  }

  private create(event: SubmitEvent): Promise<void> {
    return this.submit(event, async (data) => {
      const { createApiKey } = await this.api.request(CreateApiKeyMutation, {
        name: String(data.get("name") ?? ""),
      });
      this.token = createApiKey.token;
    });
  }

  private async deleteItem(id: number): Promise<void> {
    if (!confirm("Revoke this key? Requests using it are refused at once.")) return;
    await this.act(() => this.api.request(DeleteApiKeyMutation, { id }));
  }

  override render() {
    return html`
      <h1>API keys</h1>
      <vx-shown-once .value=${this.token} .heading=${"Copy your new key now: it is shown only once."}
        @vx-dismiss=${() => {
          this.token = null;
        }}></vx-shown-once>
      <form class="row" @submit=${this.create} novalidate>
        <label class="sr-only" for="key-name">Key name</label>
        <input id="key-name" name="name" placeholder="Name, e.g. CRM integration" style="max-width: 20rem" />
        <button class="primary" type="submit">Create key</button>
      </form>
      ${fieldError(this.errors, "name")}${this.errors.fields.name ? nothing : formMessage(this.errors)}
      ${this.loaded((items) =>
        items.length === 0
          ? emptyState(
              "No API keys yet.",
              "Create one above to use the REST or GraphQL API from your own systems; its token is shown once.",
            )
          : html`<div class="table-wrap"><table><thead><tr><th>Name</th><th>Created</th><th>Last used</th><th></th></tr></thead>
            <tbody>${items.map(
              (
                k,
              ) => html`<tr><td>${k.name}</td><td>${formatDate(k.createdAt)}</td><td>${formatDate(k.lastUsedAt)}</td>
                <td><button class="danger" @click=${() => this.deleteItem(k.id)} aria-label="Revoke ${k.name}">Revoke</button></td></tr>`,
            )}</tbody></table></div>`,
      )}
    `;
  }
}

/** The balance, live, and the ledger of every movement. */
export class VxBilling extends DataScreen<ConsoleViewerQuery["viewer"]> {
  override connectedCallback(): void {
    super.connectedCallback();
    this.track(
      this.api.subscribe(BalanceSubscription, {}, ({ balanceChanged }) => {
        if (this.data)
          this.data = { ...this.data, account: { ...this.data.account, balance: balanceChanged.balance } };
      }),
    );
  }

  protected override async fetch() {
    return (await this.api.request(ViewerQuery)).viewer;
  }

  override render() {
    return this.loaded(
      (v) => html`
        <h1>Balance</h1>
        <p class="card"><span class="muted">${v.account.name}</span><br />
          <strong style="font-size: 2rem" aria-live="polite" data-testid="balance">${money(v.account.balance)}</strong></p>
        <p class="hint">Updated live as messages, replies and calls are charged.</p>
        <h2>Ledger</h2>
        <vx-ledger></vx-ledger>
        <vx-data-privacy></vx-data-privacy>
      `,
    );
  }
}
