import { html, nothing } from "lit";
import type {
  ConsoleWebhookDeliveriesQuery,
  ConsoleWebhookSigningSecretsQuery,
} from "../generated/graphql.ts";
import {
  DataScreen,
  type FormErrors,
  fieldError,
  formatDate,
  formErrors,
  formMessage,
  noErrors,
  pager,
} from "../screen.ts";
import { deliveryStatus } from "../status-words.ts";
import {
  RedeliverWebhookMutation,
  RotateWebhookSecretMutation,
  SendTestWebhookMutation,
  WebhookDeliveriesQuery,
  WebhookSigningSecretsQuery,
} from "./webhooks.operations.ts";

type Delivery = ConsoleWebhookDeliveriesQuery["webhookDeliveries"]["items"][number];

function response(delivery: Delivery) {
  if (delivery.lastStatusCode !== null && delivery.lastStatusCode !== undefined)
    return html`<span class="badge">${delivery.lastStatusCode}</span>`;
  return delivery.lastError ? html`<span class="muted">${delivery.lastError}</span>` : "—";
}

/** The account's webhook delivery log: each event's state and attempts, redelivery, and a test event. */
export class VxWebhooks extends DataScreen<ConsoleWebhookDeliveriesQuery["webhookDeliveries"]> {
  static override properties = {
    notice: { state: true },
    secrets: { state: true },
    rotated: { state: true },
    rotateErrors: { state: true },
  };
  declare notice: string | null;
  declare secrets: ConsoleWebhookSigningSecretsQuery["webhookSigningSecrets"] | null;
  declare rotated: { secret: string; detail: string } | null;
  declare rotateErrors: FormErrors;
  #status: string | null = null;

  constructor() {
    super();
    this.notice = null;
    this.secrets = null;
    this.rotated = null;
    this.rotateErrors = noErrors;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.loadSecrets());
  }

  private async loadSecrets(): Promise<void> {
    this.secrets = (await this.api.request(WebhookSigningSecretsQuery)).webhookSigningSecrets;
  }

  /** A new signing secret, shown once; the previous one keeps signing for the chosen overlap. */
  private async rotate(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const overlapSeconds = Number(new FormData(event.target as HTMLFormElement).get("overlap") ?? 86_400);
    if (!confirm("Make a new signing secret? Receivers must be given it before the old one stops signing."))
      return;
    try {
      const { rotateWebhookSecret } = await this.api.request(RotateWebhookSecretMutation, {
        overlapSeconds,
      });
      this.rotated = {
        secret: rotateWebhookSecret.secret,
        detail: rotateWebhookSecret.previousExpiresAt
          ? `The previous secret also signs until ${formatDate(rotateWebhookSecret.previousExpiresAt)}: each request carries both signatures meanwhile.`
          : "The previous secret stopped signing at once.",
      };
      this.rotateErrors = noErrors;
      await this.loadSecrets();
    } catch (error) {
      this.rotateErrors = formErrors(error);
    }
  }

  protected override async fetch(page: number) {
    return (
      await this.api.request(WebhookDeliveriesQuery, {
        page,
        filter: this.#status ? { status: this.#status } : null,
      })
    ).webhookDeliveries;
  }

  private sendTest(event: SubmitEvent): Promise<void> {
    return this.submit(event, async (data) => {
      const { sendTestWebhook } = await this.api.request(SendTestWebhookMutation, {
        url: String(data.get("url") ?? ""),
      });
      this.notice = `Test event ${sendTestWebhook.id} queued.`;
      this.page = 1;
    });
  }

  private redeliver(delivery: Delivery): Promise<void> {
    return this.act(async () => {
      await this.api.request(RedeliverWebhookMutation, { id: delivery.id });
      this.notice = `Event ${delivery.id} (${delivery.type}) queued again.`;
    });
  }

  override render() {
    return html`
      <h1>Webhooks</h1>
      ${this.renderSecrets()}
      <h2>Delivery log</h2>
      <p class="hint">Every event sent to your webhook URLs, newest first. Failed deliveries are retried with a growing pause; redeliver sends one again at once.</p>
      ${this.notice ? html`<p class="ok" role="status">${this.notice}</p>` : nothing}
      <form class="row" @submit=${this.sendTest} novalidate aria-label="Send a test event">
        <label class="sr-only" for="test-url">Webhook URL</label>
        <input id="test-url" name="url" type="url" placeholder="https://example.com/webhooks/voxgate" style="flex: 3 1 14rem"
          aria-describedby=${this.errors.fields.url?.length ? "error-url" : nothing} />
        <button type="submit">Send test event</button>
      </form>
      ${fieldError(this.errors, "url")}${this.errors.fields.url ? nothing : formMessage(this.errors)}
      <form class="row" @change=${(event: Event) => {
        this.#status = (event.target as HTMLSelectElement).value || null;
        void this.load(1);
      }} @submit=${(event: Event) => event.preventDefault()}>
        <label for="delivery-status">Status</label>
        <select id="delivery-status" name="status" style="max-width: 12rem">
          <option value="">Any</option>${["pending", "delivered", "failed"].map((s) => html`<option value=${s}>${deliveryStatus(s)}</option>`)}
        </select>
        <button type="button" @click=${() => void this.load()}>Refresh</button>
      </form>
      ${this.loaded((page) =>
        page.items.length === 0
          ? html`<p class="muted">No deliveries yet.</p>`
          : html`<div class="table-wrap"><table aria-label="Webhook deliveries">
              <thead><tr><th>When</th><th>Event</th><th>URL</th><th>Status</th><th class="num">Attempts</th><th>Response</th><th>Next attempt</th><th></th></tr></thead>
              <tbody>${page.items.map(
                (d) => html`<tr>
                  <td>${formatDate(d.createdAt)}</td><td>${d.type}</td><td class="url">${d.url}</td>
                  <td><span class="badge">${deliveryStatus(d.status)}</span></td><td class="num">${d.attempts}</td>
                  <td>${response(d)}</td><td>${d.status === "pending" ? formatDate(d.nextAttemptAt) : "—"}</td>
                  <td><button type="button" @click=${() => this.redeliver(d)} aria-label="Redeliver event ${d.id}">Redeliver</button></td>
                </tr>`,
              )}</tbody></table></div>
            ${pager(page.pageInfo, ["delivery", "deliveries"], (next) => void this.load(next))}`,
      )}
    `;
  }

  private renderSecrets() {
    const secrets = this.secrets;
    return html`<section aria-labelledby="secrets-title">
      <h2 id="secrets-title">Signing secrets</h2>
      <p class="hint">Every webhook carries Standard Webhooks signatures (<code>webhook-signature</code>) made with the account's secret. A secret is shown once, when it is made: the first when an assistant turns webhooks on, later ones here.</p>
      <vx-shown-once .value=${this.rotated?.secret ?? null} .heading=${"Copy the new signing secret now: it is shown only once."}
        .detail=${this.rotated?.detail ?? null} @vx-dismiss=${() => {
          this.rotated = null;
        }}></vx-shown-once>
      ${
        secrets === null
          ? nothing
          : secrets.length === 0
            ? html`<p class="muted">No signing secret yet: it is made when an assistant first turns webhooks on, or by a rotation.</p>`
            : html`<ul aria-label="Signing secrets">${secrets.map(
                (secret) =>
                  html`<li>Made ${formatDate(secret.createdAt)} · ${
                    secret.expiresAt ? `retired, signs until ${formatDate(secret.expiresAt)}` : "current"
                  }</li>`,
              )}</ul>`
      }
      <form class="row" @submit=${this.rotate} aria-label="Rotate the signing secret">
        <label class="inline" for="overlap">Keep the previous secret signing for</label>
        <select id="overlap" name="overlap" style="max-width: 12rem" aria-describedby=${this.rotateErrors.fields.overlapSeconds ? "error-overlapSeconds" : nothing}>
          <option value="0">no time</option><option value="3600">1 hour</option>
          <option value="86400" selected>1 day</option><option value="604800">7 days</option>
        </select>
        <button type="submit">Rotate secret</button>
      </form>
      ${fieldError(this.rotateErrors, "overlapSeconds")}${this.rotateErrors.fields.overlapSeconds ? nothing : formMessage(this.rotateErrors)}
    </section>`;
  }
}
