/** Account members: roles, invitations, reset links (GraphQL in `members.schema.ts`). */

export { InvitationEmails } from "./invitation-emails.service.ts";
export type { AccountMember, LinkDetails } from "./members.service.ts";
export { MembersService } from "./members.service.ts";
