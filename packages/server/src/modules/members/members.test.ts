import { parse, validate } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { schema } from "../../schema.ts";
import { hashToken } from "../auth/tokens.ts";

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
});
afterAll(() => t?.close());

const INVITE = `mutation ($input: InviteMemberInput!) {
  inviteMember(input: $input) { token path link invitation { id email role expiresAt } }
}`;
const ACCEPT = `mutation ($input: AcceptInvitationInput!) {
  acceptInvitation(input: $input) { token viewer { id email name role } }
}`;
const LOGIN = `mutation ($input: LoginInput!) { login(input: $input) { token } }`;
const VIEWER = "{ viewer { id role } }";

let counter = 0;
const freshEmail = () => `member-${Date.now()}-${++counter}@example.com`;

async function login(email: string, password: string): Promise<string> {
  const result = await t.gql<{ login: { token: string } }>(LOGIN, { input: { email, password } });
  expect(result.errors).toBeUndefined();
  return result.data!.login.token;
}

async function invite(token: string, role: string, email = freshEmail()) {
  const result = await t.gql<{ inviteMember: { token: string; path: string; invitation: { id: number } } }>(
    INVITE,
    { input: { email, role } },
    { token },
  );
  expect(result.errors).toBeUndefined();
  return { ...result.data!.inviteMember, email };
}

/** Invites and accepts: a signed-in member of `owner`'s account with `role`. */
async function join(owner: string, role: string) {
  const { token, email } = await invite(owner, role);
  const password = "correct horse battery";
  const accepted = await t.gql<{ acceptInvitation: { token: string; viewer: { id: number } } }>(ACCEPT, {
    input: { token, name: `New ${role}`, password },
  });
  expect(accepted.errors).toBeUndefined();
  return {
    session: accepted.data!.acceptInvitation.token,
    userId: accepted.data!.acceptInvitation.viewer.id,
    email,
    password,
  };
}

const codeOf = (result: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  result.errors?.[0]?.extensions?.code;

describe("roles", () => {
  it("makes existing and newly created account users owners", async () => {
    const result = await t.gql<{ viewer: { role: string } }>(VIEWER, {}, { token: alice.apiKey });
    expect(result.data!.viewer.role).toBe("owner");
    const row = await t.app.db.prisma.user.findUniqueOrThrow({ where: { id: alice.userId } });
    expect(row.role).toBe("owner");
  });

  it("refuses an agent every management operation with ROLE_NOT_ALLOWED, and lets it work", async () => {
    const agent = await join(alice.apiKey, "agent");
    const refused: [string, Record<string, unknown>?][] = [
      ["{ apiKeys { id } }"],
      ['mutation { createApiKey(input: { name: "x" }) { token } }'],
      ["mutation { deleteApiKey(id: 1) { deletedId } }"],
      ["{ ledgerEntries { pageInfo { total } } }"],
      ["{ webhookSigningSecrets { createdAt } }"],
      ["mutation { rotateWebhookSecret { secret } }"],
      ["{ webhookDeliveries { pageInfo { total } } }"],
      ["{ providerKeys { provider } }"],
      ["mutation { removeProviderKey(provider: deepgram) { provider } }"],
      ["mutation { setDataRetention(input: {}) { callTurnDays } }"],
      ["mutation { setChatHandoffSettings(input: { assistantId: 1 }) { assistantId } }"],
      ['mutation { createCalendarConnection(input: { name: "c", provider: caldav }) { id } }'],
      ["mutation { deleteCalendarConnection(id: 1) }"],
      ['mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "+15550001111" }) { id } }'],
      ["mutation { releasePhoneNumber(id: 1) { releasedNow } }"],
      ["{ auditLog { entries { id } } }"],
      ['mutation { createAssistant(input: { name: "a" }) { id } }'],
      ["mutation { deleteAssistant(id: 1) { deletedId } }"],
      ["{ platformAccounts { pageInfo { total } } }"],
      ["{ invitations { id } }"],
      [INVITE, { input: { email: freshEmail(), role: "agent" } }],
      ["mutation { revokeInvitation(id: 1) }"],
      [`mutation { changeMemberRole(input: { userId: ${alice.userId}, role: agent }) { id } }`],
      [`mutation { removeMember(userId: ${alice.userId}) }`],
      [`mutation { resetMemberPassword(userId: ${alice.userId}) { token } }`],
      ["mutation { resendInvitationEmail(id: 1) { token } }"],
      ["{ invitationEmailEnabled }"],
    ];
    for (const [query, variables] of refused) {
      const result = await t.gql(query, variables, { token: agent.session });
      expect(result.errors?.[0]?.extensions, query).toMatchObject({ code: "ROLE_NOT_ALLOWED" });
      expect(result.errors?.[0]?.message, query).toMatch(/role \(agent\)/);
    }
    // Each document is valid, so the refusal above is the role check's, not the schema's.
    for (const [query] of refused) expect(validate(schema, parse(query)), query).toEqual([]);

    const works = await t.gql<{ viewer: { role: string }; members: { id: number }[] }>(
      "{ viewer { role } members { id name email role } assistants { pageInfo { total } } calls { pageInfo { total } } conversations { pageInfo { total } } }",
      {},
      { token: agent.session },
    );
    expect(works.errors).toBeUndefined();
    expect(works.data!.viewer.role).toBe("agent");
    expect(works.data!.members.map((member) => member.id)).toEqual(
      expect.arrayContaining([alice.userId, agent.userId]),
    );
  });

  it("lets an API key act with its creator's current role", async () => {
    const admin = await join(alice.apiKey, "admin");
    const created = await t.gql<{ createApiKey: { token: string } }>(
      'mutation { createApiKey(input: { name: "admin key" }) { token } }',
      {},
      { token: admin.session },
    );
    const key = created.data!.createApiKey.token;
    expect((await t.rest("GET", "/api/user/api-keys", { token: key })).status).toBe(200);

    const demoted = await t.gql(
      `mutation { changeMemberRole(input: { userId: ${admin.userId}, role: agent }) { role } }`,
      {},
      { token: alice.apiKey },
    );
    expect(demoted.errors).toBeUndefined();
    const refused = await t.rest<{ message: string }>("GET", "/api/user/api-keys", { token: key });
    expect(refused.status).toBe(403);
  });
});

describe("invitations", () => {
  it("shows the link once, stores only its hash, and accepts it once", async () => {
    const invited = await invite(alice.apiKey, "agent");
    expect(invited.token).toMatch(/^vgi_[A-Za-z0-9_-]{43}$/);
    expect(invited.path).toBe(`/console/#/invite/${invited.token}`);
    expect((invited as unknown as { link: string }).link).toBe(
      `${t.app.config.publicBaseUrl}/console/#/invite/${invited.token}`,
    );
    const row = await t.app.db.prisma.invitation.findUniqueOrThrow({ where: { id: invited.invitation.id } });
    expect(row.tokenHash).toBe(hashToken(invited.token));
    expect(JSON.stringify(row)).not.toContain(invited.token.slice(4));
    const week = row.expiresAt.getTime() - row.createdAt.getTime();
    expect(week).toBeGreaterThan(6.9 * 24 * 3_600_000);
    expect(week).toBeLessThanOrEqual(7 * 24 * 3_600_000 + 1000);

    const pending = await t.gql<{ invitations: { email: string }[] }>(
      "{ invitations { email role } }",
      {},
      {
        token: alice.apiKey,
      },
    );
    expect(pending.data!.invitations.map((i) => i.email)).toContain(invited.email);

    const described = await t.gql<{ invitationLink: Record<string, unknown> }>(
      "query ($token: String!) { invitationLink(token: $token) { kind email role accountName } }",
      { token: invited.token },
    );
    expect(described.data!.invitationLink).toMatchObject({
      kind: "invitation",
      email: invited.email,
      role: "agent",
    });

    const input = { token: invited.token, name: "Ada Agent", password: "a long password" };
    const accepted = await t.gql<{ acceptInvitation: { token: string; viewer: Record<string, unknown> } }>(
      ACCEPT,
      {
        input,
      },
    );
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data!.acceptInvitation.viewer).toMatchObject({
      email: invited.email,
      name: "Ada Agent",
      role: "agent",
    });
    const me = await t.gql<{ viewer: { role: string } }>(
      VIEWER,
      {},
      { token: accepted.data!.acceptInvitation.token },
    );
    expect(me.data!.viewer.role).toBe("agent");
    await login(invited.email, "a long password");

    const again = await t.gql(ACCEPT, { input: { ...input, password: "another password" } });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: "INVITATION_INVALID", reason: "used" });
    const after = await t.gql<{ invitations: { email: string }[] }>(
      "{ invitations { email } }",
      {},
      {
        token: alice.apiKey,
      },
    );
    expect(after.data!.invitations.map((i) => i.email)).not.toContain(invited.email);
  });

  it("refuses an expired, withdrawn or unknown link", async () => {
    const expired = await invite(alice.apiKey, "agent");
    await t.app.db.prisma.invitation.update({
      where: { id: expired.invitation.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const late = await t.gql(ACCEPT, {
      input: { token: expired.token, name: "Late", password: "a long password" },
    });
    expect(late.errors?.[0]?.extensions).toMatchObject({ code: "INVITATION_INVALID", reason: "expired" });

    const withdrawn = await invite(alice.apiKey, "agent");
    const revoke = await t.gql(
      `mutation { revokeInvitation(id: ${withdrawn.invitation.id}) }`,
      {},
      { token: alice.apiKey },
    );
    expect(revoke.errors).toBeUndefined();
    const refused = await t.gql(ACCEPT, {
      input: { token: withdrawn.token, name: "W", password: "a long password" },
    });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "INVITATION_INVALID", reason: "revoked" });

    const unknown = await t.gql(ACCEPT, {
      input: { token: "vgi_nope", name: "U", password: "a long password" },
    });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: "INVITATION_INVALID", reason: "unknown" });
    expect(
      await t.app.db.prisma.user.count({ where: { email: { in: [expired.email, withdrawn.email] } } }),
    ).toBe(0);
  });

  it("lets only an owner invite an owner, and refuses a taken email", async () => {
    const admin = await join(alice.apiKey, "admin");
    const refused = await t.gql(
      INVITE,
      { input: { email: freshEmail(), role: "owner" } },
      { token: admin.session },
    );
    expect(codeOf(refused)).toBe("ROLE_NOT_ALLOWED");
    const taken = await t.gql(
      INVITE,
      { input: { email: bob.email, role: "agent" } },
      { token: alice.apiKey },
    );
    expect(codeOf(taken)).toBe("VALIDATION_FAILED");
    await invite(alice.apiKey, "owner");
  });
});

describe("changing and removing members", () => {
  it("keeps the last owner, and lets admins manage agents but not owners", async () => {
    const solo = await t.createAccount();
    const demoteSelf = await t.gql(
      `mutation { changeMemberRole(input: { userId: ${solo.userId}, role: admin }) { id } }`,
      {},
      { token: solo.apiKey },
    );
    expect(codeOf(demoteSelf)).toBe("LAST_OWNER");
    const removeSelf = await t.gql(
      `mutation { removeMember(userId: ${solo.userId}) }`,
      {},
      { token: solo.apiKey },
    );
    expect(codeOf(removeSelf)).toBe("LAST_OWNER");

    const admin = await join(solo.apiKey, "admin");
    const agent = await join(solo.apiKey, "agent");
    const adminOnOwner = await t.gql(
      `mutation { changeMemberRole(input: { userId: ${solo.userId}, role: agent }) { id } }`,
      {},
      { token: admin.session },
    );
    expect(codeOf(adminOnOwner)).toBe("ROLE_NOT_ALLOWED");
    const adminMakesOwner = await t.gql(
      `mutation { changeMemberRole(input: { userId: ${agent.userId}, role: owner }) { id } }`,
      {},
      { token: admin.session },
    );
    expect(codeOf(adminMakesOwner)).toBe("ROLE_NOT_ALLOWED");
    const adminPromotes = await t.gql<{ changeMemberRole: { role: string } }>(
      `mutation { changeMemberRole(input: { userId: ${agent.userId}, role: admin }) { role } }`,
      {},
      { token: admin.session },
    );
    expect(adminPromotes.data!.changeMemberRole.role).toBe("admin");

    // With a second owner, the first may step down.
    await t.gql(
      `mutation { changeMemberRole(input: { userId: ${admin.userId}, role: owner }) { id } }`,
      {},
      {
        token: solo.apiKey,
      },
    );
    const stepDown = await t.gql<{ changeMemberRole: { role: string } }>(
      `mutation { changeMemberRole(input: { userId: ${solo.userId}, role: admin }) { role } }`,
      {},
      { token: solo.apiKey },
    );
    expect(stepDown.errors).toBeUndefined();
    expect(stepDown.data!.changeMemberRole.role).toBe("admin");
  });

  it("keeps accounts apart", async () => {
    const agent = await join(alice.apiKey, "agent");
    for (const query of [
      `mutation { changeMemberRole(input: { userId: ${agent.userId}, role: admin }) { id } }`,
      `mutation { removeMember(userId: ${agent.userId}) }`,
      `mutation { resetMemberPassword(userId: ${agent.userId}) { token } }`,
    ]) {
      expect(codeOf(await t.gql(query, {}, { token: bob.apiKey })), query).toBe("NOT_FOUND");
    }
    const members = await t.gql<{ members: { id: number }[] }>(
      "{ members { id } }",
      {},
      { token: bob.apiKey },
    );
    expect(members.data!.members.map((m) => m.id)).toEqual([bob.userId]);
    const invitations = await t.gql<{ invitations: unknown[] }>(
      "{ invitations { id } }",
      {},
      { token: bob.apiKey },
    );
    expect(invitations.data!.invitations).toEqual([]);
  });

  it("ends a removed member's sessions and keys, and keeps their assistants", async () => {
    const admin = await join(alice.apiKey, "admin");
    const key = await t.gql<{ createApiKey: { token: string } }>(
      'mutation { createApiKey(input: { name: "leaving" }) { token } }',
      {},
      { token: admin.session },
    );
    const assistant = await t.gql<{ createAssistant: { id: number } }>(
      'mutation { createAssistant(input: { name: "Kept" }) { id } }',
      {},
      { token: admin.session },
    );
    expect(assistant.errors).toBeUndefined();
    // Both credentials work (and are cached) before the removal.
    expect((await t.gql(VIEWER, {}, { token: admin.session })).errors).toBeUndefined();
    expect((await t.gql(VIEWER, {}, { token: key.data!.createApiKey.token })).errors).toBeUndefined();

    const removed = await t.gql(
      `mutation { removeMember(userId: ${admin.userId}) }`,
      {},
      { token: alice.apiKey },
    );
    expect(removed.errors).toBeUndefined();
    expect(codeOf(await t.gql(VIEWER, {}, { token: admin.session }))).toBe("UNAUTHENTICATED");
    expect(codeOf(await t.gql(VIEWER, {}, { token: key.data!.createApiKey.token }))).toBe("UNAUTHENTICATED");
    const kept = await t.app.db.prisma.assistant.findUniqueOrThrow({
      where: { id: assistant.data!.createAssistant.id },
    });
    expect(kept.userId).toBe(alice.userId);
    const members = await t.gql<{ members: { id: number }[] }>(
      "{ members { id } }",
      {},
      { token: alice.apiKey },
    );
    expect(members.data!.members.map((m) => m.id)).not.toContain(admin.userId);
  });

  it("resets a member's password: sessions end, the old password stops, the link sets a new one once", async () => {
    const agent = await join(alice.apiKey, "agent");
    const second = await login(agent.email, agent.password);
    const reset = await t.gql<{ resetMemberPassword: { token: string; path: string } }>(
      `mutation { resetMemberPassword(userId: ${agent.userId}) { token path expiresAt } }`,
      {},
      { token: alice.apiKey },
    );
    expect(reset.errors).toBeUndefined();
    for (const session of [agent.session, second]) {
      expect(codeOf(await t.gql(VIEWER, {}, { token: session }))).toBe("UNAUTHENTICATED");
    }
    const old = await t.gql(LOGIN, { input: { email: agent.email, password: agent.password } });
    expect(codeOf(old)).toBe("INVALID_CREDENTIALS");

    const link = reset.data!.resetMemberPassword.token;
    const described = await t.gql<{ invitationLink: { kind: string; email: string } }>(
      "query ($token: String!) { invitationLink(token: $token) { kind email } }",
      { token: link },
    );
    expect(described.data!.invitationLink).toEqual({ kind: "reset", email: agent.email });
    const accepted = await t.gql<{
      acceptInvitation: { viewer: { id: number; name: string; role: string } };
    }>(ACCEPT, { input: { token: link, password: "a brand new password" } });
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data!.acceptInvitation.viewer).toMatchObject({
      id: agent.userId,
      name: "New agent",
      role: "agent",
    });
    await login(agent.email, "a brand new password");
    const again = await t.gql(ACCEPT, { input: { token: link, password: "yet another one" } });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: "INVITATION_INVALID", reason: "used" });
  });
});

describe("without a mail server", () => {
  it("shows links only, records no email, and refuses a resend with MAIL_NOT_CONFIGURED", async () => {
    const enabled = await t.gql("{ invitationEmailEnabled }", {}, { token: alice.apiKey });
    expect(enabled.data).toEqual({ invitationEmailEnabled: false });
    const made = await t.gql<{ inviteMember: { invitation: { id: number; emailStatus: string } } }>(
      "mutation ($input: InviteMemberInput!) { inviteMember(input: $input) { invitation { id emailStatus } } }",
      { input: { email: freshEmail(), role: "agent" } },
      { token: alice.apiKey },
    );
    const { id, emailStatus } = made.data!.inviteMember.invitation;
    expect(emailStatus).toBe("not_configured");
    const listed = await t.gql<{ invitations: { id: number; emailStatus: string; emailError: null }[] }>(
      "{ invitations { id emailStatus emailError emailSentAt } }",
      {},
      { token: alice.apiKey },
    );
    expect(listed.data!.invitations.find((invitation) => invitation.id === id)).toEqual({
      id,
      emailStatus: "not_configured",
      emailError: null,
      emailSentAt: null,
    });
    const resent = await t.gql(
      "mutation ($id: Int!) { resendInvitationEmail(id: $id) { token } }",
      { id },
      { token: alice.apiKey },
    );
    expect(codeOf(resent)).toBe("MAIL_NOT_CONFIGURED");
  });
});
