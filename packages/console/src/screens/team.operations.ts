import { graphql } from "../api/graphql.ts";

export const TeamQuery = graphql(`
  query ConsoleTeam {
    viewer { id role }
    members { id name email role createdAt }
    invitations { id email role expiresAt createdAt emailStatus emailError emailSentAt }
    invitationEmailEnabled
  }
`);

export const InviteMemberMutation = graphql(`
  mutation ConsoleInviteMember($input: InviteMemberInput!) {
    inviteMember(input: $input) { token path invitation { id emailStatus } }
  }
`);

export const ResendInvitationEmailMutation = graphql(`
  mutation ConsoleResendInvitationEmail($id: Int!) {
    resendInvitationEmail(id: $id) { path invitation { id emailStatus } }
  }
`);

export const RevokeInvitationMutation = graphql(`
  mutation ConsoleRevokeInvitation($id: Int!) {
    revokeInvitation(id: $id)
  }
`);

export const ChangeMemberRoleMutation = graphql(`
  mutation ConsoleChangeMemberRole($input: ChangeMemberRoleInput!) {
    changeMemberRole(input: $input) { id role }
  }
`);

export const RemoveMemberMutation = graphql(`
  mutation ConsoleRemoveMember($userId: Int!) {
    removeMember(userId: $userId)
  }
`);

export const ResetMemberPasswordMutation = graphql(`
  mutation ConsoleResetMemberPassword($userId: Int!) {
    resetMemberPassword(userId: $userId) { path expiresAt emailStatus }
  }
`);

export const InvitationLinkQuery = graphql(`
  query ConsoleInvitationLink($token: String!) {
    invitationLink(token: $token) { kind email role accountName expiresAt }
  }
`);

export const AcceptInvitationMutation = graphql(`
  mutation ConsoleAcceptInvitation($input: AcceptInvitationInput!) {
    acceptInvitation(input: $input) {
      token
      expiresAt
      viewer { id email role account { id isOperator } }
    }
  }
`);
