import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningSmtp, startSmtpServer } from "../../../test/support/smtp.ts";
import {
  ownRateLimitKeys,
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../test/support/test-app.ts";

const MAIL_FROM = "Voxgate <voxgate@example.test>";
/** Emails an account may send per hour in this file's app. */
const PER_HOUR = 5;

let smtp: RunningSmtp;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({
    env: {
      VOXGATE_SMTP_URL: smtp.url,
      VOXGATE_MAIL_FROM: MAIL_FROM,
      VOXGATE_MAIL_RATE_LIMIT_PER_HOUR: String(PER_HOUR),
      ...ownRateLimitKeys(),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

const INVITE = `mutation ($input: InviteMemberInput!) {
  inviteMember(input: $input) { token link invitation { id email emailStatus } }
}`;
const INVITATIONS = "{ invitations { id email emailStatus emailError emailSentAt expiresAt } }";
const RESEND = `mutation ($id: Int!) {
  resendInvitationEmail(id: $id) { token link invitation { id emailStatus expiresAt } }
}`;
const ACCEPT = `mutation ($input: AcceptInvitationInput!) {
  acceptInvitation(input: $input) { token viewer { id email role } }
}`;

interface Invited {
  token: string;
  link: string;
  invitation: { id: number; email: string; emailStatus: string };
}
interface Listed {
  id: number;
  email: string;
  emailStatus: string;
  emailError: string | null;
  emailSentAt: string | null;
  expiresAt: string;
}

let counter = 0;
const freshEmail = () => `invitee-${Date.now()}-${++counter}@example.com`;

async function invite(account: TestAccount, email = freshEmail(), role = "agent"): Promise<Invited> {
  const result = await t.gql<{ inviteMember: Invited }>(
    INVITE,
    { input: { email, role } },
    { token: account.apiKey },
  );
  expect(result.errors).toBeUndefined();
  return result.data!.inviteMember;
}

/** The invitation as the console lists it, once its email is no longer under way. */
async function settled(account: TestAccount, id: number): Promise<Listed> {
  return vi.waitFor(
    async () => {
      const result = await t.gql<{ invitations: Listed[] }>(INVITATIONS, {}, { token: account.apiKey });
      const found = result.data!.invitations.find((invitation) => invitation.id === id);
      if (!found || found.emailStatus === "sending") throw new Error("still sending");
      return found;
    },
    { timeout: 30_000, interval: 50 },
  );
}

function tokenOf(link: string): string {
  return new URL(link).hash.replace("#/invite/", "");
}

async function accept(token: string) {
  return t.gql<{ acceptInvitation: { token: string; viewer: { email: string; role: string } } }>(ACCEPT, {
    input: { token, name: "Newcomer", password: "correct horse battery" },
  });
}

describe("invitation emails through a real SMTP server", () => {
  it("sends the link with the account, the inviter and the expiry, and the emailed link works", async () => {
    smtp.mode = "accept";
    const owner = await t.createAccount();
    await t.app.db.prisma.account.update({ where: { id: owner.accountId }, data: { name: "Acme Dental" } });
    await t.app.db.prisma.user.update({ where: { id: owner.userId }, data: { name: "Olivia Owner" } });
    const email = freshEmail();
    const invited = await invite(owner, email, "admin");
    // The mutation does not wait for the mail server: the link is shown at once.
    expect(invited.invitation.emailStatus).toBe("sending");
    expect(invited.link).toBe(`${PUBLIC_BASE_URL}/console/#/invite/${invited.token}`);

    const mail = await smtp.next();
    expect(mail.envelope).toEqual({ from: "voxgate@example.test", to: [email] });
    expect(mail.parsed.to).toMatchObject({ value: [{ address: email }] });
    expect(mail.parsed.from).toMatchObject({ value: [{ address: "voxgate@example.test", name: "Voxgate" }] });
    expect(mail.parsed.cc).toBeUndefined();
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.subject).toBe("Olivia Owner invited you to Acme Dental on Voxgate");
    const text = mail.parsed.text!;
    expect(text).toContain(
      `Olivia Owner (${owner.email}) invited you to join Acme Dental on Voxgate as an admin.`,
    );
    expect(text).toContain(invited.link);
    const listed = await settled(owner, invited.invitation.id);
    expect(listed).toMatchObject({ emailStatus: "sent", emailError: null });
    expect(listed.emailSentAt).not.toBeNull();
    expect(text).toContain(`until ${listed.expiresAt.slice(0, 16).replace("T", " ")} UTC`);
    expect(mail.parsed.html).toContain(`<a href="${invited.link}">`);
    // No tracking: nothing in the HTML is fetched.
    expect(mail.parsed.html).not.toMatch(/<img|src=/i);

    const emailed = /^https?:\/\/\S+$/m.exec(text)![0];
    const accepted = await accept(tokenOf(emailed));
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data!.acceptInvitation.viewer).toMatchObject({ email, role: "admin" });
  });

  it("keeps names with line breaks on one line: no header of theirs reaches the message", async () => {
    smtp.mode = "accept";
    const owner = await t.createAccount();
    await t.app.db.prisma.account.update({
      where: { id: owner.accountId },
      data: { name: "Acme\r\nBcc: victim@example.com" },
    });
    await t.app.db.prisma.user.update({
      where: { id: owner.userId },
      data: { name: "Eve\r\nSubject: urgent\n<script>alert(1)</script>" },
    });
    const email = freshEmail();
    await invite(owner, email);
    const mail = await smtp.next();
    expect(mail.envelope.to).toEqual([email]);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.headers.get("subject")).toBe(
      "Eve Subject: urgent <script>alert(1)</script> invited you to Acme Bcc: victim@example.com on Voxgate",
    );
    expect(mail.raw).not.toMatch(/^Bcc:/im);
    expect(mail.parsed.html).not.toContain("<script>");
    expect(mail.parsed.html).toContain("&lt;script&gt;");
  });

  it("records a refusal as failed without failing the invitation, whose link still works", async () => {
    smtp.mode = "refuseRecipients";
    const owner = await t.createAccount();
    const invited = await invite(owner);
    expect(invited.token).toMatch(/^vgi_/);
    const listed = await settled(owner, invited.invitation.id);
    expect(listed.emailStatus).toBe("failed");
    expect(listed.emailError).toMatch(/^The mail server refused the sender or the recipient \(550 /);
    expect(listed.emailSentAt).toBeNull();

    smtp.mode = "refuseSignIn";
    const second = await invite(owner);
    const refused = await settled(owner, second.invitation.id);
    expect(refused.emailError).toMatch(/^The mail server refused the sign-in/);
    // The server echoed the password in its reply: it is not kept.
    expect(refused.emailError).not.toContain(smtp.password);

    smtp.mode = "accept";
    const accepted = await accept(invited.token);
    expect(accepted.errors).toBeUndefined();
  });

  it("resends with a new link (the old one stops working), and counts emails per account", async () => {
    smtp.mode = "refuseRecipients";
    const owner = await t.createAccount();
    const invited = await invite(owner);
    const before = await settled(owner, invited.invitation.id);
    expect(before.emailStatus).toBe("failed");

    smtp.mode = "accept";
    const resent = await t.gql<{ resendInvitationEmail: Invited & { invitation: { expiresAt: string } } }>(
      RESEND,
      { id: invited.invitation.id },
      { token: owner.apiKey },
    );
    expect(resent.errors).toBeUndefined();
    const again = resent.data!.resendInvitationEmail;
    expect(again.invitation).toMatchObject({ id: invited.invitation.id, emailStatus: "sending" });
    expect(again.token).not.toBe(invited.token);
    const mail = await smtp.next();
    expect(mail.parsed.text).toContain(again.link);
    expect(mail.parsed.text).not.toContain(invited.token);
    expect(await settled(owner, invited.invitation.id)).toMatchObject({
      emailStatus: "sent",
      emailError: null,
    });
    const audit = await t.app.db.prisma.auditEntry.findFirst({
      where: { accountId: owner.accountId, action: "member.invitation_resent" },
    });
    expect(audit).toMatchObject({ targetType: "invitation", targetId: String(invited.invitation.id) });

    const stale = await accept(invited.token);
    expect(stale.errors?.[0]?.extensions).toMatchObject({ code: "INVITATION_INVALID", reason: "unknown" });

    // Two emails so far; the account's budget runs out at PER_HOUR, another account's does not.
    for (let sent = 2; sent < PER_HOUR; sent++) {
      const result = await t.gql(RESEND, { id: invited.invitation.id }, { token: owner.apiKey });
      expect(result.errors).toBeUndefined();
      await smtp.next();
    }
    const limited = await t.gql(RESEND, { id: invited.invitation.id }, { token: owner.apiKey });
    expect(limited.errors?.[0]?.extensions).toMatchObject({ code: "RATE_LIMITED" });
    // A new invitation past the budget is made all the same; only its email is not sent.
    const past = await invite(owner);
    expect(await settled(owner, past.invitation.id)).toMatchObject({
      emailStatus: "failed",
      emailError: expect.stringMatching(/^Too many emails from this account/),
    });
    const other = await t.createAccount();
    const theirs = await invite(other);
    await smtp.next();
    expect((await settled(other, theirs.invitation.id)).emailStatus).toBe("sent");
  });

  it("lets only an owner resend an owner's invitation, and only a pending one", async () => {
    smtp.mode = "accept";
    const owner = await t.createAccount();
    const forOwner = await invite(owner, freshEmail(), "owner");
    await smtp.next();
    const adminInvite = await invite(owner, freshEmail(), "admin");
    await smtp.next();
    const admin = await accept(adminInvite.token);
    const adminSession = admin.data!.acceptInvitation.token;
    const refused = await t.gql(RESEND, { id: forOwner.invitation.id }, { token: adminSession });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "ROLE_NOT_ALLOWED" });
    const used = await t.gql(RESEND, { id: adminInvite.invitation.id }, { token: owner.apiKey });
    expect(used.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    const stranger = await t.createAccount();
    const foreign = await t.gql(RESEND, { id: forOwner.invitation.id }, { token: stranger.apiKey });
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
  });

  it("emails an admin's password reset link to the member", async () => {
    smtp.mode = "accept";
    const owner = await t.createAccount();
    await t.app.db.prisma.account.update({ where: { id: owner.accountId }, data: { name: "Acme Dental" } });
    const invited = await invite(owner);
    await smtp.next();
    const joined = await accept(invited.token);
    expect(joined.errors).toBeUndefined();
    const member = await t.app.db.prisma.user.findUniqueOrThrow({
      where: { email: invited.invitation.email },
    });

    const reset = await t.gql<{ resetMemberPassword: { link: string; emailStatus: string } }>(
      "mutation ($userId: Int!) { resetMemberPassword(userId: $userId) { link emailStatus } }",
      { userId: member.id },
      { token: owner.apiKey },
    );
    expect(reset.errors).toBeUndefined();
    expect(reset.data!.resetMemberPassword.emailStatus).toBe("sending");
    const mail = await smtp.next();
    expect(mail.envelope.to).toEqual([member.email]);
    expect(mail.parsed.subject).toBe("Set a new password for Acme Dental on Voxgate");
    expect(mail.parsed.text).toContain(reset.data!.resetMemberPassword.link);
    const used = await accept(tokenOf(reset.data!.resetMemberPassword.link));
    expect(used.errors).toBeUndefined();
    expect(used.data!.acceptInvitation.viewer.email).toBe(member.email);
  });

  it("says that email is on", async () => {
    const owner = await t.createAccount();
    const result = await t.gql<{ invitationEmailEnabled: boolean }>(
      "{ invitationEmailEnabled }",
      {},
      { token: owner.apiKey },
    );
    expect(result.data).toEqual({ invitationEmailEnabled: true });
  });

  it("shows an email its server did not live to finish as failed, once the longest send is over", async () => {
    const owner = await t.createAccount();
    // What an instance stopped mid-send leaves: the row says sending, and the token died with it.
    const row = (minutesAgo: number, email: string) => ({
      accountId: owner.accountId,
      email,
      role: "agent" as const,
      tokenHash: `cut-short-${email}`,
      createdById: owner.userId,
      expiresAt: new Date(Date.now() + 86_400_000),
      emailStatus: "sending" as const,
      emailQueuedAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    const [old, recent] = [freshEmail(), freshEmail()];
    await t.app.db.prisma.invitation.createMany({ data: [row(10, old), row(0, recent)] });
    const result = await t.gql<{ invitations: Listed[] }>(INVITATIONS, {}, { token: owner.apiKey });
    const byEmail = new Map(result.data!.invitations.map((invitation) => [invitation.email, invitation]));
    expect(byEmail.get(old)).toMatchObject({
      emailStatus: "failed",
      emailError: "The server stopped before this email went out. Resend it, or copy the link.",
    });
    // Within the mailer's bound (twice its 20 s timeout here, and a margin) it may still be going out.
    expect(byEmail.get(recent)).toMatchObject({ emailStatus: "sending", emailError: null });
  });
});
