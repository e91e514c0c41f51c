import { html, nothing } from "lit";
import type { ConsoleAuditLogQuery, ConsoleDataRetentionQuery } from "../generated/graphql.ts";
import { DataScreen, fieldError, formatDate, formMessage } from "../screen.ts";
import { saveFile } from "./customer-data.ts";
import {
  AuditLogExportQuery,
  AuditLogQuery,
  DataRetentionQuery,
  SetDataRetentionMutation,
} from "./data-privacy.operations.ts";

type Retention = ConsoleDataRetentionQuery["dataRetention"];
type AuditEntry = ConsoleAuditLogQuery["auditLog"]["entries"][number];

const KINDS: [field: keyof Omit<Retention, "__typename">, label: string][] = [
  ["transcriptDays", "Call transcripts"],
  ["recordingDays", "Call recordings"],
  ["messageDays", "Conversation messages"],
  ["callTurnDays", "Call turn details"],
  ["webhookLogDays", "Webhook delivery logs"],
  ["textDays", "Text message bodies"],
  ["auditLogDays", "Audit log entries"],
];

/** How long the account keeps customer content (empty: forever), and who did what (docs/data-governance.md). */
export class VxDataPrivacy extends DataScreen<{
  retention: Retention;
  audit: AuditEntry[];
  next: string | null;
}> {
  protected override async fetch() {
    const [{ dataRetention }, { auditLog }] = await Promise.all([
      this.api.request(DataRetentionQuery),
      this.api.request(AuditLogQuery, { after: null }),
    ]);
    return { retention: dataRetention, audit: auditLog.entries, next: auditLog.nextCursor };
  }

  private save(event: SubmitEvent): Promise<void> {
    return this.submit(event, (data) =>
      this.api.request(SetDataRetentionMutation, {
        input: Object.fromEntries(
          KINDS.map(([field]) => {
            const value = String(data.get(field) ?? "").trim();
            return [field, value === "" ? null : Number(value)];
          }),
        ),
      }),
    );
  }

  private async older(): Promise<void> {
    if (!this.data?.next) return;
    const { auditLog } = await this.api.request(AuditLogQuery, { after: this.data.next });
    this.data = { ...this.data, audit: [...this.data.audit, ...auditLog.entries], next: auditLog.nextCursor };
  }

  /** The whole log, oldest first (as `audit:export` writes it), in one JSON file; a failure shows in the banner. */
  private async downloadAudit(): Promise<void> {
    const entries: unknown[] = [];
    let after: string | null = null;
    do {
      const { auditLog }: { auditLog: { entries: unknown[]; nextCursor: string | null } } =
        await this.api.request(AuditLogExportQuery, { after });
      entries.push(...auditLog.entries);
      after = auditLog.nextCursor;
    } while (after !== null);
    entries.reverse();
    saveFile(
      new Blob([JSON.stringify(entries, null, 2)], { type: "application/json" }),
      `audit-log-${new Date().toISOString().slice(0, 10)}.json`,
    );
  }

  override render() {
    return this.loaded(
      ({ retention, audit, next }) => html`
        <h2>Data &amp; privacy</h2>
        <form class="card" @submit=${this.save} novalidate aria-label="Retention">
          <h3>Retention</h3>
          <p class="hint">Days to keep each kind of content (1–3650); empty keeps it forever. Expired content is removed hourly; charges are always kept.</p>
          <div class="grid">
            ${KINDS.map(
              ([field, label]) => html`<div>
                <label for="retention-${field}">${label}</label>
                <input id="retention-${field}" name=${field} type="number" min="1" max="3650" inputmode="numeric"
                  .value=${retention[field] === null ? "" : String(retention[field])} placeholder="forever" />
                ${fieldError(this.errors, field)}
              </div>`,
            )}
          </div>
          ${formMessage(this.errors)}
          <p><button class="primary" type="submit">Save retention</button></p>
        </form>
        <vx-customer-data></vx-customer-data>
        <h3>Audit log</h3>
        <p><button type="button" @click=${() => this.run(this.downloadAudit())}>Download audit log</button>
          <span class="hint">Every entry, oldest first, as JSON.</span></p>
        ${
          audit.length === 0
            ? html`<p class="muted">No entries yet.</p>`
            : html`<div class="table-wrap"><table aria-label="Audit log">
              <thead><tr><th>When</th><th>Action</th><th>By</th><th>Target</th><th>From</th></tr></thead>
              <tbody>${audit.map(
                (entry) => html`<tr>
                  <td>${formatDate(entry.at)}</td>
                  <td>${entry.action}</td>
                  <td>${entry.actorKind}${entry.actorId === null ? nothing : ` #${entry.actorId}`}</td>
                  <td>${entry.targetType} ${entry.targetId}</td>
                  <td>${entry.ip ?? ""}</td>
                </tr>`,
              )}</tbody></table></div>`
        }
        ${next ? html`<p><button @click=${() => this.older()}>Older entries</button></p>` : nothing}
      `,
    );
  }
}
