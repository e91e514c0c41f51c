import { html } from "lit";
import type { ConsoleLedgerQuery } from "../generated/graphql.ts";
import { DataScreen, formatDate, money, pager } from "../screen.ts";
import { BalanceSubscription, LedgerQuery } from "./ledger.operations.ts";

const KINDS: Record<string, string> = {
  credit: "Credit",
  message_debit: "Message",
  reply_debit: "Generated reply",
  call_debit: "Call minute",
  adjustment: "Adjustment",
};

/**
 * An account's ledger, newest first: the signed-in account's own (live: a new entry shows when the
 * balance changes), or for a platform operator the account `accountId`.
 */
export class VxLedger extends DataScreen<ConsoleLedgerQuery["ledgerEntries"]> {
  static override properties = { accountId: { attribute: false } };
  declare accountId: number | null;

  constructor() {
    super();
    this.accountId = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.accountId === null) {
      this.track(
        this.api.subscribe(BalanceSubscription, {}, () => {
          if (this.page === 1) void this.load();
        }),
      );
    }
  }

  protected override async fetch(page: number) {
    return (await this.api.request(LedgerQuery, { accountId: this.accountId, page })).ledgerEntries;
  }

  override render() {
    return this.loaded((ledger) =>
      ledger.items.length === 0
        ? html`<p class="muted">No entries yet.</p>`
        : html`<div class="table-wrap"><table aria-label="Ledger">
            <thead><tr><th>When</th><th>Kind</th><th>Description</th><th class="num">Amount</th><th class="num">Balance after</th></tr></thead>
            <tbody>${ledger.items.map(
              (entry) => html`<tr>
                <td>${formatDate(entry.createdAt)}</td>
                <td>${KINDS[entry.kind] ?? entry.kind}${entry.pending ? html` <span class="badge" title="Held until the work it pays for is stored, or refunded">pending</span>` : ""}</td>
                <td>${entry.description}</td>
                <td class="num ${entry.amount.startsWith("-") ? "debit" : "credit"}">${money(entry.amount)}</td>
                <td class="num">${money(entry.balanceAfter)}</td>
              </tr>`,
            )}</tbody></table></div>
          ${pager(ledger.pageInfo, ["entry", "entries"], (page) => void this.load(page))}`,
    );
  }
}
