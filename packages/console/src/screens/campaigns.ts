import type { CountryCode } from "libphonenumber-js/min";
import { css, html, nothing } from "lit";
import type { ParsedCsv, RefusedRow } from "../csv-import.ts";
import type {
  ConsoleCampaignChoicesQuery,
  ConsoleCampaignProgressSubscription,
  ConsoleCampaignsQuery,
  ConsoleLeadsQuery,
} from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import {
  DataScreen,
  describedBy,
  emptyState,
  type FormErrors,
  fieldError,
  formErrors,
  formMessage,
  loading,
  noErrors,
  Screen,
} from "../screen.ts";
import { campaignStatus, leadStatus } from "../status-words.ts";
import {
  CampaignChoicesQuery,
  CampaignProgressSubscription,
  CampaignsQuery,
  CreateCampaignMutation,
  CreateLeadMutation,
  DeleteCampaignMutation,
  DeleteLeadMutation,
  LeadsQuery,
  UpdateCampaignMutation,
} from "./campaigns.operations.ts";

type Campaign = ConsoleCampaignsQuery["campaigns"]["items"][number];
type Progress = ConsoleCampaignProgressSubscription["campaignProgress"];
type Lead = ConsoleLeadsQuery["leads"]["items"][number];
/**
 * The CSV reader and the phone numbering plans (csv-parse, libphonenumber-js: most of this screen's
 * weight) come in their own chunk once a file is chosen, not with every visit of a campaign.
 */
type CsvImport = typeof import("../csv-import.ts");

export class VxCampaigns extends DataScreen<Campaign[]> {
  protected override async fetch() {
    return (await this.api.request(CampaignsQuery)).campaigns.items;
  }

  override render() {
    return html`
      <div class="row"><h1>Campaigns</h1><a class="badge" href=${href("campaigns", "new")}>New campaign</a></div>
      ${this.loaded((items) =>
        items.length === 0
          ? emptyState(
              "No campaigns yet.",
              html`<a href=${href("campaigns", "new")}>Create your first campaign</a>: choose an assistant and the numbers to call from, then import the leads to call from a CSV file.`,
            )
          : html`<div class="table-wrap"><table>
              <thead><tr><th>Name</th><th>Status</th><th>Leads</th><th>Completed</th><th>Window</th></tr></thead>
              <tbody>${items.map(
                (
                  c,
                ) => html`<tr><td><a href=${href("campaigns", c.id)}>${c.name}</a></td><td>${campaignStatus(c.status)}</td>
                  <td>${c.progress.leads.total}</td><td>${c.progress.leads.completed}</td>
                  <td>${c.callingWindow.start}–${c.callingWindow.end} ${c.callingWindow.timezone}</td></tr>`,
              )}</tbody></table></div>`,
      )}
    `;
  }
}

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

/** One campaign: settings, live progress with start/pause, and its leads with a CSV import. */
export class VxCampaign extends Screen {
  static override properties = {
    campaignId: { attribute: false },
    tab: { attribute: false },
    campaign: { state: true },
    choices: { state: true },
    progress: { state: true },
    errors: { state: true },
    saved: { state: true },
    leads: { state: true },
    csv: { state: true },
    phoneColumn: { state: true },
    report: { state: true },
    importing: { state: true },
  };
  declare campaignId: number | null;
  declare tab: string;
  declare campaign: Campaign | null;
  declare choices: ConsoleCampaignChoicesQuery | null;
  declare progress: Progress | null;
  declare errors: FormErrors;
  declare saved: boolean;
  declare leads: ConsoleLeadsQuery["leads"] | null;
  declare csv: ParsedCsv | null;
  declare phoneColumn: number;
  declare report: { created: number; refused: RefusedRow[] } | null;
  declare importing: string | null;

  constructor() {
    super();
    this.campaignId = null;
    this.tab = "settings";
    this.campaign = null;
    this.choices = null;
    this.progress = null;
    this.errors = noErrors;
    this.saved = false;
    this.leads = null;
    this.csv = null;
    this.phoneColumn = 0;
    this.report = null;
    this.importing = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load());
    if (this.campaignId !== null) {
      this.track(
        this.api.subscribe(CampaignProgressSubscription, { campaignId: this.campaignId }, (data) => {
          this.progress = data.campaignProgress;
          // The summary changed because leads did: the table follows, so both say the same.
          this.refreshLeads();
        }),
      );
    }
  }

  private async load(): Promise<void> {
    this.choices = await this.api.request(CampaignChoicesQuery);
    if (this.campaignId !== null) {
      const { campaigns } = await this.api.request(CampaignsQuery);
      this.campaign = campaigns.items.find((c) => c.id === this.campaignId) ?? null;
      this.progress ??= this.campaign
        ? { campaignId: this.campaign.id, status: this.campaign.status, ...this.campaign.progress }
        : null;
      await this.loadLeads(1);
    }
  }

  private async loadLeads(page: number): Promise<void> {
    this.leads = (await this.api.request(LeadsQuery, { campaignId: this.campaignId, page })).leads;
  }

  #csvImport: CsvImport | null = null;
  #refreshing: Promise<void> | null = null;
  #refreshAgain = false;

  /**
   * Reads the shown page of leads again after a progress event. A busy campaign sends many: one read
   * runs at a time, and events during it ask for one more read after it, not one each.
   */
  private refreshLeads(): void {
    if (this.leads === null) return;
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshing = this.loadLeads(this.leads.pageInfo.currentPage).finally(() => {
      this.#refreshing = null;
      if (this.#refreshAgain) {
        this.#refreshAgain = false;
        this.refreshLeads();
      }
    });
    this.run(this.#refreshing);
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const number = (name: string) => (data.get(name) === "" ? undefined : Number(data.get(name)));
    const input = {
      name: String(data.get("name") ?? ""),
      assistantId: number("assistantId") ?? null,
      timezone: String(data.get("timezone") ?? ""),
      callingWindowStart: String(data.get("callingWindowStart") ?? ""),
      callingWindowEnd: String(data.get("callingWindowEnd") ?? ""),
      maxRetries: number("maxRetries"),
      retryIntervalMinutes: number("retryIntervalMinutes"),
      maxConcurrentCalls: number("maxConcurrentCalls"),
      phoneNumberIds: data.getAll("phoneNumberIds").map(Number),
    };
    try {
      if (this.campaignId === null) {
        const { createCampaign } = await this.api.request(CreateCampaignMutation, { input });
        navigate("campaigns", createCampaign.id);
      } else {
        await this.api.request(UpdateCampaignMutation, { id: this.campaignId, input });
        this.errors = noErrors;
        this.saved = true;
      }
    } catch (error) {
      this.errors = formErrors(error);
      this.saved = false;
    }
  }

  private async setStatus(status: "active" | "paused"): Promise<void> {
    if (this.campaignId === null) return;
    try {
      const { updateCampaign } = await this.api.request(UpdateCampaignMutation, {
        id: this.campaignId,
        input: { status },
      });
      if (this.progress) this.progress = { ...this.progress, status: updateCampaign.status };
      this.errors = noErrors;
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  /** Asks first; calls already made stay in Calls, the leads are no longer called. */
  private async deleteCampaign(): Promise<void> {
    const c = this.campaign;
    if (!c) return;
    const total = this.progress?.leads.total ?? c.progress.leads.total;
    const leads = total === 1 ? "Its lead is" : `Its ${total} leads are`;
    if (
      !confirm(`Delete the campaign ${c.name}? ${leads} no longer called; calls already made stay in Calls.`)
    )
      return;
    try {
      await this.api.request(DeleteCampaignMutation, { id: c.id });
      navigate("campaigns");
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private async deleteLead(lead: Lead): Promise<void> {
    if (!confirm(`Delete the lead ${lead.phoneNumber}? It is no longer called.`)) return;
    try {
      await this.api.request(DeleteLeadMutation, { id: lead.id });
      this.errors = noErrors;
    } catch (error) {
      this.errors = formErrors(error);
    }
    // The page may have emptied: the last page still holding leads, else the first.
    const page = this.leads?.pageInfo.currentPage ?? 1;
    await this.loadLeads(page);
    if (this.leads && this.leads.items.length === 0 && page > 1)
      await this.loadLeads(this.leads.pageInfo.lastPage);
  }

  private async chooseFile(event: Event): Promise<void> {
    const file = (event.target as HTMLInputElement).files?.[0];
    this.report = null;
    if (!file) return;
    try {
      this.#csvImport ??= await import("../csv-import.ts");
      this.csv = this.#csvImport.parseCsv(await file.text());
      this.phoneColumn = this.#csvImport.guessPhoneColumn(this.csv.header);
    } catch (error) {
      this.csv = null;
      this.report = {
        created: 0,
        refused: [{ line: 0, value: file.name, reason: (error as Error).message }],
      };
    }
  }

  private async runImport(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const csv = this.csv;
    // Read now: once dispatch ends, a shadow tree's event no longer names its target.
    const form = event.target as HTMLFormElement;
    const csvImport = this.#csvImport;
    if (!csv || !csvImport || this.campaignId === null) return;
    const data = new FormData(form);
    const allowDuplicate = data.get("allowDuplicate") === "on";
    const country = String(data.get("defaultCountry") ?? "");
    const defaultCountry = country === "" ? null : (country as CountryCode);
    const variables: Record<string, number> = {};
    csv.header.forEach((name, column) => {
      if (column !== this.phoneColumn && data.get(`var-${column}`) === "on") variables[name] = column;
    });
    const { leads, refused } = csvImport.planImport(
      csv,
      { phone: this.phoneColumn, variables },
      allowDuplicate,
      defaultCountry,
    );
    let created = 0;
    for (const [index, lead] of leads.entries()) {
      this.importing = `Importing ${index + 1} of ${leads.length}…`;
      try {
        await this.api.request(CreateLeadMutation, {
          input: {
            campaignId: this.campaignId,
            phoneNumber: lead.phoneNumber,
            variables: lead.variables,
            allowDuplicate,
          },
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
    this.importing = null;
    this.report = { created, refused };
    this.csv = null;
    form.reset();
    await this.loadLeads(1);
  }

  override render() {
    if (this.campaignId !== null && !this.campaign) return loading;
    const c = this.campaign;
    return html`
      <p><a href=${href("campaigns")}>← Campaigns</a></p>
      <h1>${c ? c.name : "New campaign"}</h1>
      ${c ? this.renderProgress() : nothing}
      ${
        c
          ? html`<div class="row" role="tablist" aria-label="Campaign">
              <a role="tab" aria-selected=${this.tab !== "leads"} href=${href("campaigns", c.id)}>Settings</a>
              <a role="tab" aria-selected=${this.tab === "leads"} href=${href("campaigns", c.id, "leads")}>Leads</a>
            </div>`
          : nothing
      }
      ${c && this.tab === "leads" ? this.renderLeads() : this.renderForm(c)}
    `;
  }

  private renderProgress() {
    const p = this.progress;
    if (!p) return nothing;
    return html`<section class="card" aria-label="Progress" aria-live="polite">
      <div class="row">
        <span class="badge" data-testid="campaign-status">${campaignStatus(p.status)}</span>
        <span>${p.callsRunning} call(s) running</span>
        <span class="muted">${p.withinCallingWindow ? "inside the calling window" : "outside the calling window"}</span>
        ${
          p.status === "active"
            ? html`<button type="button" @click=${() => this.setStatus("paused")}>Pause</button>`
            : p.status !== "completed"
              ? html`<button type="button" class="primary" @click=${() => this.setStatus("active")}>Start</button>`
              : nothing
        }
      </div>
      <progress max=${Math.max(p.leads.total, 1)} value=${p.leads.completed + p.leads.reachedMaxRetries + p.leads.blacklisted}
        aria-label="Leads finished"></progress>
      <p class="muted">${p.leads.total} leads: ${p.leads.completed} completed, ${p.leads.processing} calling,
        ${p.leads.scheduled + p.leads.created} waiting, ${p.leads.rescheduled} rescheduled,
        ${p.leads.reachedMaxRetries} out of retries, ${p.leads.blacklisted} blacklisted</p>
      ${formMessage(this.errors)}
    </section>`;
  }

  private renderForm(c: Campaign | null) {
    const field = (name: string, label: string, value: unknown, type = "text") => html`<div>
      <label for="c-${name}">${label}</label>
      <input id="c-${name}" name=${name} type=${type} .value=${value === undefined || value === null ? "" : String(value)}
        aria-invalid=${this.errors.fields[name] ? "true" : "false"} aria-describedby=${describedBy(this.errors, name)} />
      ${fieldError(this.errors, name)}</div>`;
    const selected = new Set(c?.phoneNumbers.map((p) => p.id) ?? []);
    return html`<form novalidate @submit=${this.save} aria-label="Campaign settings">
      <div class="grid">
        ${field("name", "Name", c?.name)}
        <div><label for="c-assistantId">Assistant</label>
          <select id="c-assistantId" name="assistantId">
            <option value="">None</option>
            ${(this.choices?.assistants.items ?? []).map((a) => html`<option value=${a.id} .selected=${c?.assistantId === a.id}>${a.name}</option>`)}
          </select>${fieldError(this.errors, "assistantId")}</div>
        ${field("timezone", "Time zone", c?.callingWindow.timezone ?? "UTC")}
        ${field("callingWindowStart", "Calls from (HH:MM)", c?.callingWindow.start ?? "09:00", "time")}
        ${field("callingWindowEnd", "Calls until (HH:MM)", c?.callingWindow.end ?? "18:00", "time")}
        ${field("maxRetries", "Retries", c?.retry.maxRetries ?? 2, "number")}
        ${field("retryIntervalMinutes", "Minutes between retries", c?.retry.intervalMinutes ?? 60, "number")}
        ${field("maxConcurrentCalls", "Calls at once", c?.maxConcurrentCalls ?? 1, "number")}
      </div>
      <fieldset><legend>Numbers to call from</legend>
        ${
          (this.choices?.phoneNumbers ?? []).length === 0
            ? html`<p class="muted">No phone numbers yet: <a href=${href("numbers")}>add one</a>.</p>`
            : (this.choices?.phoneNumbers ?? []).map(
                (p) =>
                  html`<label class="inline"><input type="checkbox" name="phoneNumberIds" value=${p.id} .checked=${selected.has(p.id)} /> ${p.phoneNumber} ${p.label}</label>`,
              )
        }
        ${fieldError(this.errors, "phoneNumberIds")}
      </fieldset>
      ${this.progress ? nothing : formMessage(this.errors)}
      ${this.saved ? html`<p class="ok" role="status">Saved.</p>` : nothing}
      <p class="row"><button class="primary" type="submit">${c ? "Save changes" : "Create campaign"}</button>
        ${c ? html`<button type="button" class="danger" @click=${this.deleteCampaign}>Delete campaign</button>` : nothing}</p>
    </form>`;
  }

  private renderLeads() {
    const csv = this.csv;
    const csvImport = this.#csvImport;
    return html`
      <section class="card">
        <h2>Import leads from CSV</h2>
        <p class="hint">The first row names the columns. Phone numbers in E.164 format (e.g. +14155550123) are
          taken as they are; choose a country below to read national numbers (e.g. 020 7946 0958) as its numbers.</p>
        <form @submit=${this.runImport}>
          <label for="csv-file">CSV file</label>
          <input id="csv-file" type="file" accept=".csv,text/csv" @change=${this.chooseFile} />
          ${
            csv && csvImport
              ? html`<p class="muted">${csv.rows.length} row(s) found.</p>
                <label for="phone-column">Phone number column</label>
                <select id="phone-column" @change=${(event: Event) => {
                  this.phoneColumn = Number((event.target as HTMLSelectElement).value);
                }}>${csv.header.map((name, column) => html`<option value=${column} .selected=${column === this.phoneColumn}>${name}</option>`)}</select>
                <fieldset><legend>Columns kept as variables</legend>
                  ${csv.header.map((name, column) =>
                    column === this.phoneColumn
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
                <p><button class="primary" type="submit" ?disabled=${this.importing !== null}>Import ${csv.rows.length} row(s)</button></p>`
              : nothing
          }
        </form>
        ${this.importing ? html`<p role="status">${this.importing}</p>` : nothing}
        ${
          this.report
            ? html`<div role="status" class="report">
                <p><strong>${this.report.created} lead(s) imported, ${this.report.refused.length} row(s) refused.</strong></p>
                ${
                  this.report.refused.length
                    ? html`<div class="table-wrap"><table aria-label="Refused rows"><thead><tr><th>Line</th><th>Value</th><th>Reason</th></tr></thead>
                      <tbody>${this.report.refused.map((r) => html`<tr><td>${r.line}</td><td>${r.value}</td><td>${r.reason}</td></tr>`)}</tbody></table></div>`
                    : nothing
                }
              </div>`
            : nothing
        }
      </section>
      <h2>Leads</h2>
      ${this.leads ? this.renderLeadsPage(this.leads) : loading}
    `;
  }

  private renderLeadsPage(leads: ConsoleLeadsQuery["leads"]) {
    const { total, currentPage, lastPage } = leads.pageInfo;
    if (total === 0)
      return emptyState("No leads yet.", "Import them from a CSV file above: one row per person to call.");
    return html`${this.renderLeadsTable(leads.items)}
      <p class="row muted">${total} lead(s) · page ${currentPage} of ${lastPage}
        <button ?disabled=${currentPage <= 1} @click=${() => this.loadLeads(currentPage - 1)}>Previous</button>
        <button ?disabled=${currentPage >= lastPage} @click=${() => this.loadLeads(currentPage + 1)}>Next</button></p>`;
  }

  /** One column per variable the page's leads carry, in the order they first appear. */
  private renderLeadsTable(items: Lead[]) {
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

  static override styles = [
    ...Screen.styles,
    css`
      progress {
        width: 100%;
      }
      [role="tab"] {
        padding: 0.5rem 0.75rem;
      }
      [role="tab"][aria-selected="true"] {
        font-weight: 700;
        border-bottom: 3px solid var(--_accent);
      }
    `,
  ];
}
