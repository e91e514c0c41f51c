/** Account members: roles, invitations, reset links (GraphQL in `members.schema.ts`). */

export { InvitationEmails } from "./invitation-emails.service.ts";
export { InvitationsService, type LinkDetails } from "./invitations.service.ts";
export type { AccountMember } from "./members.service.ts";
export { MembersService } from "./members.service.ts";
