import { html } from "lit";
import type { ConsoleCampaignsQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { DataScreen, emptyState } from "../screen.ts";
import { campaignStatus } from "../status-words.ts";
import { CampaignsQuery } from "./campaigns.operations.ts";

// The section's one chunk (screen-chunks.ts) holds the list and a campaign's page.
export { VxCampaign } from "./campaigns-detail.ts";

type Campaign = ConsoleCampaignsQuery["campaigns"]["items"][number];

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
