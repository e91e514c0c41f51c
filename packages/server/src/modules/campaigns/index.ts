/** Campaigns (GraphQL in `campaigns.schema.ts`). */
export { CampaignsService } from "./campaigns.service.ts";
