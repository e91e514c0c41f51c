/** Leads of campaigns and their secondary contacts (GraphQL in `leads.schema.ts`). */

export { LeadProgress } from "./lead-progress.ts";
export { LeadsService } from "./leads.service.ts";
