import { html, nothing } from "lit";
import {
  RedeliverWebhookMutation,
  SendTestWebhookMutation,
  WebhookDeliveriesQuery,
} from "../api/operations.ts";
import type { ConsoleWebhookDeliveriesQuery } from "../generated/graphql.ts";
import { DataScreen, fieldError, formatDate, formMessage, pager } from "../screen.ts";

type Delivery = ConsoleWebhookDeliveriesQuery["webhookDeliveries"]["items"][number];

function response(delivery: Delivery) {
  if (delivery.lastStatusCode !== null && delivery.lastStatusCode !== undefined)
    return html`<span class="badge">${delivery.lastStatusCode}</span>`;
  return delivery.lastError ? html`<span class="muted">${delivery.lastError}</span>` : "—";
}

/** The account's webhook delivery log: each event's state and attempts, redelivery, and a test event. */
export class VxWebhooks extends DataScreen<ConsoleWebhookDeliveriesQuery["webhookDeliveries"]> {
  static override properties = { notice: { state: true } };
  declare notice: string | null;
  #status: string | null = null;

  constructor() {
    super();
    this.notice = null;
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
          <option value="">Any</option><option>pending</option><option>delivered</option><option>failed</option>
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
                  <td><span class="badge">${d.status}</span></td><td class="num">${d.attempts}</td>
                  <td>${response(d)}</td><td>${d.status === "pending" ? formatDate(d.nextAttemptAt) : "—"}</td>
                  <td><button type="button" @click=${() => this.redeliver(d)} aria-label="Redeliver event ${d.id}">Redeliver</button></td>
                </tr>`,
              )}</tbody></table></div>
            ${pager(page.pageInfo, ["delivery", "deliveries"], (next) => void this.load(next))}`,
      )}
    `;
  }
}
