import type { CountryCode } from "libphonenumber-js/min";
import { html, nothing, type ReactiveControllerHost } from "lit";
import type { ConsoleApi } from "../api/client.ts";
import type { ParsedCsv, RefusedRow } from "../csv-import.ts";
import type { ConsoleLeadsQuery } from "../generated/graphql.ts";
import { emptyState, type FormErrors, formErrors, loading, noErrors } from "../screen.ts";
import { leadStatus } from "../status-words.ts";
import { CreateLeadMutation, DeleteLeadMutation, LeadsQuery } from "./campaigns.operations.ts";

type Lead = ConsoleLeadsQuery["leads"]["items"][number];
/**
 * The CSV reader and the phone numbering plans (csv-parse, libphonenumber-js: most of this screen's
 * weight) come in their own chunk once a file is chosen, not with every visit of a campaign.
 */
type CsvImport = typeof import("../csv-import.ts");

/** A lead's variables as text: strings as they are, other JSON values written out. */
function variablesOf(lead: Lead): Record<string, string> {
  const raw = lead.variables as Record<string, unknown> | null;
  if (!raw || typeof raw !== "object") return {};
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [
      name,
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
}

/**
 * A campaign's Leads tab: its leads page by page, deletion, and the CSV import. A lead's deletion
 * reports on the campaign's own message (`host.errors`), as the settings do.
 */
export class CampaignLeads {
  #leads: ConsoleLeadsQuery["leads"] | null = null;
  #csv: ParsedCsv | null = null;
  #phoneColumn = 0;
  #report: { created: number; refused: RefusedRow[] } | null = null;
  #importing: string | null = null;
  #csvImport: CsvImport | null = null;
  #refreshing: Promise<void> | null = null;
  #refreshAgain = false;

  constructor(
    private readonly host: ReactiveControllerHost & {
      readonly api: ConsoleApi;
      campaignId: number | null;
      errors: FormErrors;
      run(task: Promise<unknown>): void;
    },
  ) {}

  async load(page: number): Promise<void> {
    this.#leads = (await this.host.api.request(LeadsQuery, { campaignId: this.host.campaignId, page })).leads;
    this.host.requestUpdate();
  }

  /**
   * Reads the shown page of leads again after a progress event. A busy campaign sends many: one read
   * runs at a time, and events during it ask for one more read after it, not one each.
   */
  refresh(): void {
    if (this.#leads === null) return;
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshing = this.load(this.#leads.pageInfo.currentPage).finally(() => {
      this.#refreshing = null;
      if (this.#refreshAgain) {
        this.#refreshAgain = false;
        this.refresh();
      }
    });
    this.host.run(this.#refreshing);
  }

  private async deleteLead(lead: Lead): Promise<void> {
    if (!confirm(`Delete the lead ${lead.phoneNumber}? It is no longer called.`)) return;
    try {
      await this.host.api.request(DeleteLeadMutation, { id: lead.id });
      this.host.errors = noErrors;
    } catch (error) {
      this.host.errors = formErrors(error);
    }
    // The page may have emptied: the last page still holding leads, else the first.
    const page = this.#leads?.pageInfo.currentPage ?? 1;
    await this.load(page);
    if (this.#leads && this.#leads.items.length === 0 && page > 1)
      await this.load(this.#leads.pageInfo.lastPage);
  }

  private async chooseFile(event: Event): Promise<void> {
    const file = (event.target as HTMLInputElement).files?.[0];
    this.#report = null;
    this.host.requestUpdate();
    if (!file) return;
    try {
      this.#csvImport ??= await import("../csv-import.ts");
      this.#csv = this.#csvImport.parseCsv(await file.text());
      this.#phoneColumn = this.#csvImport.guessPhoneColumn(this.#csv.header);
    } catch (error) {
      this.#csv = null;
      this.#report = {
        created: 0,
        refused: [{ line: 0, value: file.name, reason: (error as Error).message }],
      };
    }
    this.host.requestUpdate();
  }

  private async runImport(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const csv = this.#csv;
    // Read now: once dispatch ends, a shadow tree's event no longer names its target.
    const form = event.target as HTMLFormElement;
    const csvImport = this.#csvImport;
    const campaignId = this.host.campaignId;
    if (!csv || !csvImport || campaignId === null) return;
    const data = new FormData(form);
    const allowDuplicate = data.get("allowDuplicate") === "on";
    const country = String(data.get("defaultCountry") ?? "");
    const defaultCountry = country === "" ? null : (country as CountryCode);
    const variables: Record<string, number> = {};
    csv.header.forEach((name, column) => {
      if (column !== this.#phoneColumn && data.get(`var-${column}`) === "on") variables[name] = column;
    });
    const { leads, refused } = csvImport.planImport(
      csv,
      { phone: this.#phoneColumn, variables },
      allowDuplicate,
      defaultCountry,
    );
    let created = 0;
    for (const [index, lead] of leads.entries()) {
      this.#importing = `Importing ${index + 1} of ${leads.length}…`;
      this.host.requestUpdate();
      try {
        await this.host.api.request(CreateLeadMutation, {
          input: { campaignId, phoneNumber: lead.phoneNumber, variables: lead.variables, allowDuplicate },
        });
        created += 1;
      } catch (error) {
        const fields = formErrors(error).fields;
        refused.push({
          line: lead.line,
          value: lead.phoneNumber,
          reason: fields.phoneNumber?.join(" ") ?? (error as Error).message,
        });
      }
    }
    refused.sort((a, b) => a.line - b.line);
    this.#importing = null;
    this.#report = { created, refused };
    this.#csv = null;
    this.host.requestUpdate();
    form.reset();
    await this.load(1);
  }

  render() {
    const csv = this.#csv;
    const csvImport = this.#csvImport;
    return html`
      <section class="card">
        <h2>Import leads from CSV</h2>
        <p class="hint">The first row names the columns. Phone numbers in E.164 format (e.g. +14155550123) are
          taken as they are; choose a country below to read national numbers (e.g. 020 7946 0958) as its numbers.</p>
        <form @submit=${(event: SubmitEvent) => this.runImport(event)}>
          <label for="csv-file">CSV file</label>
          <input id="csv-file" type="file" accept=".csv,text/csv" @change=${(event: Event) => this.chooseFile(event)} />
          ${
            csv && csvImport
              ? html`<p class="muted">${csv.rows.length} row(s) found.</p>
                <label for="phone-column">Phone number column</label>
                <select id="phone-column" @change=${(event: Event) => {
                  this.#phoneColumn = Number((event.target as HTMLSelectElement).value);
                  this.host.requestUpdate();
                }}>${csv.header.map((name, column) => html`<option value=${column} .selected=${column === this.#phoneColumn}>${name}</option>`)}</select>
                <fieldset><legend>Columns kept as variables</legend>
                  ${csv.header.map((name, column) =>
                    column === this.#phoneColumn
                      ? nothing
                      : html`<label class="inline"><input type="checkbox" name="var-${column}" checked /> ${name}</label>`,
                  )}
                </fieldset>
                <label for="default-country">Country of national numbers</label>
                <select id="default-country" name="defaultCountry">
                  <option value="">None: every number starts with + and its country code</option>
                  ${csvImport.countryChoices().map((country) => html`<option value=${country.code}>${country.name} (${country.code})</option>`)}
                </select>
                <label class="inline"><input type="checkbox" name="allowDuplicate" /> Allow numbers already in the campaign (allow_dupplicate)</label>
                <p><button class="primary" type="submit" ?disabled=${this.#importing !== null}>Import ${csv.rows.length} row(s)</button></p>`
              : nothing
          }
        </form>
        ${this.#importing ? html`<p role="status">${this.#importing}</p>` : nothing}
        ${
          this.#report
            ? html`<div role="status" class="report">
                <p><strong>${this.#report.created} lead(s) imported, ${this.#report.refused.length} row(s) refused.</strong></p>
                ${
                  this.#report.refused.length
                    ? html`<div class="table-wrap"><table aria-label="Refused rows"><thead><tr><th>Line</th><th>Value</th><th>Reason</th></tr></thead>
                      <tbody>${this.#report.refused.map((r) => html`<tr><td>${r.line}</td><td>${r.value}</td><td>${r.reason}</td></tr>`)}</tbody></table></div>`
                    : nothing
                }
              </div>`
            : nothing
        }
      </section>
      <h2>Leads</h2>
      ${this.#leads ? this.renderPage(this.#leads) : loading}
    `;
  }

  private renderPage(leads: ConsoleLeadsQuery["leads"]) {
    const { total, currentPage, lastPage } = leads.pageInfo;
    if (total === 0)
      return emptyState("No leads yet.", "Import them from a CSV file above: one row per person to call.");
    return html`${this.renderTable(leads.items)}
      <p class="row muted">${total} lead(s) · page ${currentPage} of ${lastPage}
        <button ?disabled=${currentPage <= 1} @click=${() => this.load(currentPage - 1)}>Previous</button>
        <button ?disabled=${currentPage >= lastPage} @click=${() => this.load(currentPage + 1)}>Next</button></p>`;
  }

  /** One column per variable the page's leads carry, in the order they first appear. */
  private renderTable(items: Lead[]) {
    const names = [...new Set(items.flatMap((lead) => Object.keys(variablesOf(lead))))];
    return html`<div class="table-wrap"><table aria-label="Leads"><thead><tr><th>Phone number</th><th>Status</th><th>Attempts</th>
      ${names.map((name) => html`<th>${name}</th>`)}<th><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${items.map((l) => {
        const variables = variablesOf(l);
        return html`<tr><td>${l.phoneNumber}</td><td>${leadStatus(l.status)}</td><td>${l.attempts}</td>
          ${names.map((name) => html`<td>${variables[name] ?? ""}</td>`)}
          <td><button type="button" class="danger" aria-label="Delete lead ${l.phoneNumber}" @click=${() => this.deleteLead(l)}>Delete</button></td></tr>`;
      })}</tbody></table></div>`;
  }
}
