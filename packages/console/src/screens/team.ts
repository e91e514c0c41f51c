import { html, nothing } from "lit";
import { live } from "lit/directives/live.js";
import type { ConsoleTeamQuery, MemberRole } from "../generated/graphql.ts";
import { DataScreen, describedBy, fieldError, formatDate, formMessage, noErrors } from "../screen.ts";
import {
  ChangeMemberRoleMutation,
  InviteMemberMutation,
  RemoveMemberMutation,
  ResendInvitationEmailMutation,
  ResetMemberPasswordMutation,
  RevokeInvitationMutation,
  TeamQuery,
} from "./team.operations.ts";
import { ROLE_WORDS } from "./team-invite.ts";

// The section's one chunk (screen-chunks.ts) holds the Team screen and the invitation link's page.
export { VxAcceptInvite } from "./team-invite.ts";

const ROLE_HINTS: Record<MemberRole, string> = {
  owner: "everything, including other owners",
  admin: "everything but owners",
  agent: "conversations and calls; assistants read-only",
};

type TeamInvitation = ConsoleTeamQuery["invitations"][number];

/** How an invitation's email went, in words; the link works whatever it says. */
function emailWords(invitation: TeamInvitation) {
  switch (invitation.emailStatus) {
    case "not_configured":
      return html`<span class="muted">Not emailed</span>`;
    case "sending":
      return html`<span role="status">Sending…</span>`;
    case "sent":
      return html`Sent ${formatDate(invitation.emailSentAt)}`;
    case "failed":
      return html`<span class="error">Failed: ${invitation.emailError ?? "the email could not be sent."}</span>`;
  }
}

/** While an email is under way the list is read again this often, a bounded number of times. */
const SENDING_POLL_MS = 1500;
const SENDING_POLLS = 40;

/** The console's link for a token path the server returns (`/console/#/invite/<token>`): this page's own address. */
function linkFor(path: string): string {
  const fragment = path.slice(path.indexOf("#"));
  return `${location.origin}${location.pathname}${fragment}`;
}

/**
 * The account's members and pending invitations (owners and admins): invite by email with a role, the
 * link shown once; change roles, reset passwords, remove members.
 */
export class VxTeam extends DataScreen<ConsoleTeamQuery> {
  static override properties = {
    ...DataScreen.properties,
    link: { state: true },
    linkHeading: { state: true },
  };
  declare link: string | null;
  declare linkHeading: string;
  private followUp: ReturnType<typeof setTimeout> | undefined;
  private polls = 0;

  constructor() {
    super();
    this.link = null;
    this.linkHeading = "";
  }

  protected override async fetch() {
    const data = await this.api.request(TeamQuery);
    this.followSending(data);
    return data;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.followUp);
  }

  /** An email under way settles within the server's mail timeout: its status is read again until then. */
  private followSending(data: ConsoleTeamQuery): void {
    clearTimeout(this.followUp);
    if (!data.invitations.some((invitation) => invitation.emailStatus === "sending")) {
      this.polls = 0;
      return;
    }
    if (++this.polls > SENDING_POLLS || !this.isConnected) return;
    this.followUp = setTimeout(() => void this.load(), SENDING_POLL_MS);
  }

  private invite(event: SubmitEvent): Promise<void> {
    return this.submit(event, async (data) => {
      const email = String(data.get("email") ?? "");
      const { inviteMember } = await this.api.request(InviteMemberMutation, {
        input: { email, role: String(data.get("role") ?? "agent") as MemberRole },
      });
      this.polls = 0;
      this.link = linkFor(inviteMember.path);
      this.linkHeading =
        inviteMember.invitation.emailStatus === "sending"
          ? `The invitation is being emailed to ${email}. Its link is also shown here only once, in case you prefer to send it yourself: it works once, for 7 days.`
          : `Send this invitation link to ${email}: it is shown only once and works once, for 7 days.`;
    });
  }

  private async resendEmail(invitation: TeamInvitation): Promise<void> {
    if (!confirm(`Email a new invitation link to ${invitation.email}? The previous link stops working.`))
      return;
    await this.act(async () => {
      const { resendInvitationEmail } = await this.api.request(ResendInvitationEmailMutation, {
        id: invitation.id,
      });
      this.polls = 0;
      this.link = linkFor(resendInvitationEmail.path);
      this.linkHeading = `A new invitation link is being emailed to ${invitation.email}; the previous one no longer works. It is also shown here only once: it works once, for 7 days.`;
    });
  }

  /** A refused change (the last owner, an admin on an owner) puts the list back on the member's role. */
  private async changeRole(userId: number, role: MemberRole): Promise<void> {
    await this.act(() => this.api.request(ChangeMemberRoleMutation, { input: { userId, role } }));
    this.requestUpdate();
  }

  private async removeMember(member: { id: number; email: string }): Promise<void> {
    if (!confirm(`Remove ${member.email}? Their sessions end and the API keys they created are deleted.`))
      return;
    await this.act(() => this.api.request(RemoveMemberMutation, { userId: member.id }));
  }

  private async resetPassword(member: { id: number; email: string }): Promise<void> {
    if (
      !confirm(`Reset the password of ${member.email}? Their password stops working and they are signed out.`)
    )
      return;
    await this.act(async () => {
      const { resetMemberPassword } = await this.api.request(ResetMemberPasswordMutation, {
        userId: member.id,
      });
      this.link = linkFor(resetMemberPassword.path);
      this.linkHeading =
        resetMemberPassword.emailStatus === "sending"
          ? `A link to set a new password is being emailed to ${member.email}. It is also shown here only once: it works once, for 24 hours.`
          : `Send this link to ${member.email} to set a new password: shown only once, works once, for 24 hours.`;
    });
  }

  private async revoke(id: number): Promise<void> {
    await this.act(() => this.api.request(RevokeInvitationMutation, { id }));
  }

  override render() {
    return html`
      <h1>Team</h1>
      <vx-shown-once .value=${this.link} .heading=${this.linkHeading}
        @vx-dismiss=${() => {
          this.link = null;
        }}></vx-shown-once>
      ${this.loaded((data) => this.renderTeam(data))}
    `;
  }

  private renderTeam({ viewer, members, invitations, invitationEmailEnabled }: ConsoleTeamQuery) {
    const isOwner = viewer.role === "owner";
    // An admin neither grants the owner role nor touches an owner; the server refuses it regardless.
    const grantable = (["owner", "admin", "agent"] as const).filter((role) => isOwner || role !== "owner");
    return html`
      <h2>Members</h2>
      <div class="table-wrap"><table>
        <thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Since</th><th></th></tr></thead>
        <tbody>${members.map((m) => {
          const locked = m.role === "owner" && !isOwner;
          return html`<tr>
            <td>${m.name}${m.id === viewer.id ? html` <span class="muted">(you)</span>` : nothing}</td>
            <td>${m.email}</td>
            <td>${
              locked
                ? ROLE_WORDS[m.role]
                : html`<label class="sr-only" for="role-${m.id}">Role of ${m.email}</label>
                  <select id="role-${m.id}" .value=${live(m.role)} @change=${(event: Event) =>
                    this.changeRole(m.id, (event.target as HTMLSelectElement).value as MemberRole)}>
                    ${grantable.map((role) => html`<option value=${role} ?selected=${m.role === role}>${ROLE_WORDS[role]}</option>`)}
                  </select>`
            }</td>
            <td>${formatDate(m.createdAt)}</td>
            <td>${
              locked || m.id === viewer.id
                ? nothing
                : html`<div class="row">
                  <button @click=${() => this.resetPassword(m)} aria-label="Reset the password of ${m.email}">Reset password</button>
                  <button class="danger" @click=${() => this.removeMember(m)} aria-label="Remove ${m.email}">Remove</button></div>`
            }</td>
          </tr>`;
        })}</tbody>
      </table></div>
      ${formMessage(this.errors.fields.email ? noErrors : this.errors)}
      <form class="card" @submit=${this.invite} novalidate>
        <h2>Invite someone</h2>
        <p class="hint">${
          invitationEmailEnabled
            ? "The invitation link is emailed to the person and shown to you once, in case you prefer to send it yourself: it works once and expires in 7 days."
            : "The invitation is a link you send yourself (this server sends no email): it is shown once, works once and expires in 7 days."
        }</p>
        <div class="grid">
          <div><label for="invite-email">Email</label>
            <input id="invite-email" name="email" type="email" autocomplete="off" aria-describedby=${describedBy(this.errors, "email")} />
            ${fieldError(this.errors, "email")}</div>
          <div><label for="invite-role">Role</label>
            <select id="invite-role" name="role">
              ${grantable.map((role) => html`<option value=${role} ?selected=${role === "agent"}>${ROLE_WORDS[role]}: ${ROLE_HINTS[role]}</option>`)}
            </select></div>
        </div>
        <p><button class="primary" type="submit">Create invitation link</button></p>
      </form>
      <h2>Pending invitations</h2>
      ${
        invitations.length === 0
          ? html`<p class="muted" data-testid="empty-state">No pending invitations. Invite someone above.</p>`
          : html`<div class="table-wrap"><table>
          <thead><tr><th>Email</th><th>Role</th><th>Expires</th><th>Invitation email</th><th></th></tr></thead>
          <tbody>${invitations.map(
            (
              i,
            ) => html`<tr><td>${i.email}</td><td>${ROLE_WORDS[i.role]}</td><td>${formatDate(i.expiresAt)}</td>
              <td data-testid="email-status">${emailWords(i)}</td>
              <td><div class="row">${
                invitationEmailEnabled && (isOwner || i.role !== "owner")
                  ? html`<button @click=${() => this.resendEmail(i)} aria-label="Resend the invitation email to ${i.email}">Resend email</button>`
                  : nothing
              }<button class="danger" @click=${() => this.revoke(i.id)} aria-label="Withdraw the invitation of ${i.email}">Withdraw</button></div></td></tr>`,
          )}</tbody></table></div>`
      }
    `;
  }
}
