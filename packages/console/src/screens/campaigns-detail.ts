import { css, html, nothing } from "lit";
import type {
  ConsoleCampaignChoicesQuery,
  ConsoleCampaignProgressSubscription,
  ConsoleCampaignsQuery,
} from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import {
  describedBy,
  type FormErrors,
  fieldError,
  formErrors,
  formMessage,
  loading,
  noErrors,
  Screen,
} from "../screen.ts";
import { campaignStatus } from "../status-words.ts";
import {
  CampaignChoicesQuery,
  CampaignProgressSubscription,
  CampaignsQuery,
  CreateCampaignMutation,
  DeleteCampaignMutation,
  UpdateCampaignMutation,
} from "./campaigns.operations.ts";
import { CampaignLeads } from "./campaigns-leads.ts";

type Campaign = ConsoleCampaignsQuery["campaigns"]["items"][number];
type Progress = ConsoleCampaignProgressSubscription["campaignProgress"];

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
  };
  declare campaignId: number | null;
  declare tab: string;
  declare campaign: Campaign | null;
  declare choices: ConsoleCampaignChoicesQuery | null;
  declare progress: Progress | null;
  declare errors: FormErrors;
  declare saved: boolean;
  readonly #leads = new CampaignLeads(this);

  constructor() {
    super();
    this.campaignId = null;
    this.tab = "settings";
    this.campaign = null;
    this.choices = null;
    this.progress = null;
    this.errors = noErrors;
    this.saved = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load());
    if (this.campaignId !== null) {
      this.track(
        this.api.subscribe(CampaignProgressSubscription, { campaignId: this.campaignId }, (data) => {
          this.progress = data.campaignProgress;
          // The summary changed because leads did: the table follows, so both say the same.
          this.#leads.refresh();
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
      await this.#leads.load(1);
    }
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
      ${c && this.tab === "leads" ? this.#leads.render() : this.renderForm(c)}
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
