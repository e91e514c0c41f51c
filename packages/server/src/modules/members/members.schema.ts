import { builder } from "../../builder.ts";
import type { Invitation as InvitationModel } from "../../generated/prisma/client.ts";
import { LoginPayload, MemberRoleEnum } from "../auth/auth.schema.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";
import type { LinkDetails } from "./invitations.service.ts";
import { linkPath } from "./links.ts";
import type { AccountMember as AccountMemberShape } from "./members.service.ts";

const AccountMember = builder.objectRef<AccountMemberShape>("AccountMember").implement({
  description: "A person of the account who can sign in.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "The user's id (conversations are assigned to it)." }),
    name: t.exposeString("name"),
    email: t.exposeString("email"),
    role: t.field({ type: MemberRoleEnum, resolve: (member) => member.role }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryField("members", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [AccountMember],
    description: "The account's members, oldest first. Every role may read them.",
    resolve: (_root, _args, context) => context.services.members.list(context.viewer.accountId),
  }),
);

const InvitationEmailStatusEnum = builder.enumType("InvitationEmailStatus", {
  description:
    "Whether a link also went out by email. The email is sent after the link is made and never holds it up.",
  values: {
    not_configured: { description: "No email: the server has no mail server (VOXGATE_SMTP_URL)." },
    sending: { description: "Being sent (within the mail server's timeout)." },
    sent: { description: "The mail server accepted it." },
    failed: { description: "It could not be sent: emailError says why. The link still works." },
  } as const,
});

const Invitation = builder.objectRef<InvitationModel>("Invitation").implement({
  description: "A pending invitation to join the account. Its link was shown once, when it was made.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    email: t.exposeString("email"),
    role: t.field({ type: MemberRoleEnum, resolve: (invitation) => invitation.role }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    emailStatus: t.field({
      type: InvitationEmailStatusEnum,
      resolve: (invitation, _args, context) => context.services.invitationEmails.emailOf(invitation).status,
    }),
    emailError: t.string({
      nullable: true,
      description:
        "Why the last email failed, in a sentence (never the server's credentials); also when the server stopped before the email went out.",
      resolve: (invitation, _args, context) => context.services.invitationEmails.emailOf(invitation).error,
    }),
    emailSentAt: t.expose("emailSentAt", { type: "DateTime", nullable: true }),
  }),
});

builder.queryField("invitationEmailEnabled", (t) =>
  t.withAuth({ manager: true }).boolean({
    description:
      "Whether invitation and reset links also go out by email (the server has VOXGATE_SMTP_URL); they are shown once either way.",
    resolve: (_root, _args, context) => context.services.invitationEmails.enabled,
  }),
);

builder.queryField("invitations", (t) =>
  t.withAuth({ manager: true }).field({
    type: [Invitation],
    description: "Invitations not yet accepted, withdrawn or expired, newest first (owners and admins).",
    resolve: (_root, _args, context) => context.services.invitations.pendingInvitations(context.viewer),
  }),
);

const InviteMemberInput = builder.inputType("InviteMemberInput", {
  fields: (t) => ({
    email: t.string({ required: true }),
    role: t.field({
      type: MemberRoleEnum,
      required: true,
      description: "Only an owner may invite an owner.",
    }),
  }),
});

const InviteMemberPayload = builder
  .objectRef<{ invitation: InvitationModel; token: string }>("InviteMemberPayload")
  .implement({
    fields: (t) => ({
      invitation: t.field({ type: Invitation, resolve: (payload) => payload.invitation }),
      token: t.exposeString("token", {
        description:
          "The invitation's secret, shown only now (only its hash is kept). Valid for 7 days, once.",
      }),
      path: t.string({
        description: "The console's accept page for this token, relative to the server's origin.",
        resolve: (payload) => linkPath(payload.token),
      }),
      link: t.string({
        description: "The full link to send, at the server's PUBLIC_BASE_URL.",
        resolve: (payload, _args, context) => context.services.members.linkFor(payload.token),
      }),
    }),
  });

builder.mutationField("inviteMember", (t) =>
  t.withAuth({ manager: true }).field({
    type: InviteMemberPayload,
    description: "Invites someone by email with a role; replaces a pending invitation of the same address.",
    args: { input: t.arg({ type: InviteMemberInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.invitations.invite(context.viewer, input, context.clientAddress),
  }),
);

builder.mutationField("revokeInvitation", (t) =>
  t.withAuth({ manager: true }).int({
    description: "Withdraws a pending invitation: its link stops working. Returns its id.",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.invitations.revokeInvitation(context.viewer, id, context.clientAddress);
      return id;
    },
  }),
);

const ChangeMemberRoleInput = builder.inputType("ChangeMemberRoleInput", {
  fields: (t) => ({
    userId: t.int({ required: true }),
    role: t.field({ type: MemberRoleEnum, required: true }),
  }),
});

builder.mutationField("resendInvitationEmail", (t) =>
  t.withAuth({ manager: true }).field({
    type: InviteMemberPayload,
    description:
      "Emails a pending invitation again with a new link, good for 7 more days; the previous link stops working. The new link is also returned, once. MAIL_NOT_CONFIGURED without a mail server; RATE_LIMITED past the account's emails per hour.",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.invitationEmails.resend(
        context.viewer,
        id,
        context.clientAddress,
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);

builder.mutationField("changeMemberRole", (t) =>
  t.withAuth({ manager: true }).field({
    type: AccountMember,
    description:
      "Changes a member's role. Only an owner makes or unmakes owners; the last owner stays one (LAST_OWNER).",
    args: { input: t.arg({ type: ChangeMemberRoleInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.members.changeRole(context.viewer, input, context.clientAddress),
  }),
);

builder.mutationField("removeMember", (t) =>
  t.withAuth({ manager: true }).int({
    description:
      "Removes a member: their sessions end and the API keys they created are deleted; their assistants stay with the account. Returns their id.",
    args: { userId: t.arg.int({ required: true }) },
    resolve: async (_root, { userId }, context) => {
      await context.services.members.remove(context.viewer, userId, context.clientAddress);
      return userId;
    },
  }),
);

const ResetMemberPasswordPayload = builder
  .objectRef<{ token: string; expiresAt: Date; emailStatus: InvitationModel["emailStatus"] }>(
    "ResetMemberPasswordPayload",
  )
  .implement({
    fields: (t) => ({
      token: t.exposeString("token", {
        description: "The reset link's secret, shown only now; valid for 24 hours, once.",
      }),
      path: t.string({
        description:
          "The console's page where the member sets a new password, relative to the server's origin.",
        resolve: (payload) => linkPath(payload.token),
      }),
      link: t.string({
        description: "The full link to send, at the server's PUBLIC_BASE_URL.",
        resolve: (payload, _args, context) => context.services.members.linkFor(payload.token),
      }),
      expiresAt: t.expose("expiresAt", { type: "DateTime" }),
      emailStatus: t.field({
        type: InvitationEmailStatusEnum,
        description: "sending when the link also goes to the member by email, else not_configured.",
        resolve: (payload) => payload.emailStatus,
      }),
    }),
  });

builder.mutationField("resetMemberPassword", (t) =>
  t.withAuth({ manager: true }).field({
    type: ResetMemberPasswordPayload,
    description:
      "Voids a member's password and ends their sessions at once; the returned link lets them set a new one.",
    args: { userId: t.arg.int({ required: true }) },
    resolve: (_root, { userId }, context) =>
      context.services.members.resetPassword(context.viewer, userId, context.clientAddress),
  }),
);

const InvitationLinkKind = builder.enumType("InvitationLinkKind", {
  values: ["invitation", "reset"] as const,
});

const InvitationLink = builder.objectRef<LinkDetails>("InvitationLink").implement({
  description: "What an invitation or reset link is for, shown before the person sets a password.",
  fields: (t) => ({
    kind: t.field({ type: InvitationLinkKind, resolve: (link) => link.kind }),
    email: t.exposeString("email"),
    role: t.field({ type: MemberRoleEnum, resolve: (link) => link.role }),
    accountName: t.exposeString("accountName"),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
  }),
});

builder.queryField("invitationLink", (t) =>
  t.field({
    type: InvitationLink,
    description:
      "Public: what a link's token is for; INVITATION_INVALID when unknown, used, withdrawn or expired.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, context) => context.services.invitations.describeLink(token),
  }),
);

const AcceptInvitationInput = builder.inputType("AcceptInvitationInput", {
  fields: (t) => ({
    token: t.string({ required: true }),
    name: t.string({
      description: "Required for an invitation; a reset link keeps the member's name when absent.",
    }),
    password: t.string({ required: true, description: "At least 8 characters." }),
  }),
});

builder.mutationField("acceptInvitation", (t) =>
  t.field({
    type: LoginPayload,
    description: "Public: uses an invitation or reset link once, sets the password and signs in.",
    args: { input: t.arg({ type: AcceptInvitationInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.invitations.accept(
        input,
        context.clientAddress,
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);
