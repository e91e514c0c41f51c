import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import {
  InvitationInvalidError,
  LastOwnerError,
  NotFoundError,
  RoleNotAllowedError,
  ValidationError,
} from "../../errors.ts";
import { type Actor, actorOf, type EventSink } from "../../events.ts";
import type { Invitation, InvitationEmailStatus, Prisma } from "../../generated/prisma/client.ts";
import { emailAddress, parseInput, requiredString } from "../../validation.ts";
import type { LoginResult } from "../auth/auth.service.ts";
import type { AuthService, CredentialCache, MemberRole, Viewer } from "../auth/index.ts";
import { MEMBER_ROLES, requireManager } from "../auth/index.ts";
import { hashPassword } from "../auth/password.ts";
import { hashToken } from "../auth/tokens.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import type { InvitationEmails } from "./invitation-emails.service.ts";
import { INVITATION_TTL_MS, INVITE_PREFIX, linkPath, mintLinkToken, RESET_TTL_MS } from "./links.ts";

export interface AccountMember {
  id: number;
  name: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
}

/** What the accept page shows before the person sets a password. */
export interface LinkDetails {
  kind: "invitation" | "reset";
  email: string;
  role: MemberRole;
  accountName: string;
  expiresAt: Date;
}

const password = z
  .string({ error: "The password field is required." })
  .min(8, "The password field must be at least 8 characters.")
  .max(1024, "The password field must not be greater than 1024 characters.");

const roleInput = z.enum(MEMBER_ROLES as [MemberRole, ...MemberRole[]], {
  error: "The role field must be owner, admin or agent.",
});

const InviteInput = z.object({ email: emailAddress(), role: roleInput });
const AcceptInput = z.object({
  token: z.string({ error: "The token field is required." }).min(1).max(200),
  name: requiredString("name").optional(),
  password,
});

const TOO_MANY_ATTEMPTS = "Too many attempts. Please try again later.";

/**
 * The people of an account and their roles (docs/console.md#team): invitations and reset links shown
 * once, role changes and removals that never leave an account without an owner.
 */
export class MembersService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      auth: AuthService;
      credentials: CredentialCache;
      rateLimits: RateLimitsService;
      events: EventSink;
      emails: InvitationEmails;
    },
  ) {}

  /** The console's page for a link's token, at the server's public address (PUBLIC_BASE_URL). */
  linkFor(token: string): string {
    return `${this.deps.config.publicBaseUrl}${linkPath(token)}`;
  }

  /** Every member of the account: any role may list them (the inbox assigns conversations to them). */
  list(accountId: number): Promise<AccountMember[]> {
    return this.deps.db.prisma.user.findMany({
      where: { accountId },
      select: { id: true, name: true, email: true, role: true, createdAt: true },
      orderBy: { id: "asc" },
    });
  }

  /** Invitations not yet accepted, withdrawn or expired, newest first. */
  async pendingInvitations(viewer: Viewer): Promise<Invitation[]> {
    requireManager(await this.parts.auth.roleOf(viewer));
    return this.deps.db.prisma.invitation.findMany({
      where: {
        accountId: viewer.accountId,
        userId: null,
        acceptedAt: null,
        revokedAt: null,
        expiresAt: { gt: new Date() },
      },
      orderBy: { id: "desc" },
      take: 200,
    });
  }

  /**
   * Invites `email` with `role`; the token comes back once and only its hash is kept. A new invitation
   * to the same address replaces the pending one.
   */
  async invite(
    viewer: Viewer,
    input: { email?: unknown; role?: unknown },
    clientAddress: string,
  ): Promise<{ invitation: Invitation; token: string }> {
    const data = parseInput(InviteInput, input);
    const actorRole = await this.parts.auth.roleOf(viewer);
    requireManager(actorRole);
    if (data.role === "owner" && actorRole !== "owner")
      throw new RoleNotAllowedError(actorRole, "the owner role");
    const taken = await this.deps.db.prisma.user.findUnique({ where: { email: data.email } });
    if (taken) throw ValidationError.single("email", "The email has already been taken.");
    const token = mintLinkToken();
    const actor = actorOf(viewer, clientAddress);
    const invitation = await this.deps.db.prisma.$transaction(async (tx) => {
      await tx.invitation.updateMany({
        where: {
          accountId: viewer.accountId,
          email: data.email,
          userId: null,
          acceptedAt: null,
          revokedAt: null,
        },
        data: { revokedAt: new Date() },
      });
      const created = await tx.invitation.create({
        data: {
          accountId: viewer.accountId,
          email: data.email,
          role: data.role,
          tokenHash: hashToken(token),
          createdById: viewer.userId,
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
          ...this.parts.emails.initialEmail(),
        },
      });
      await this.audit(
        tx,
        "member.invited",
        viewer.accountId,
        actor,
        {
          type: "invitation",
          id: created.id,
        },
        { email: data.email, role: data.role },
      );
      return created;
    });
    this.deps.logger.info("member invited", { accountId: viewer.accountId, invitationId: invitation.id });
    this.parts.emails.dispatch(invitation, token);
    return { invitation, token };
  }

  async revokeInvitation(viewer: Viewer, id: number, clientAddress: string): Promise<void> {
    requireManager(await this.parts.auth.roleOf(viewer));
    await this.deps.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.invitation.updateMany({
        where: { id, accountId: viewer.accountId, userId: null, acceptedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count === 0) throw new NotFoundError("Invitation");
      await this.audit(tx, "member.invitation_revoked", viewer.accountId, actorOf(viewer, clientAddress), {
        type: "invitation",
        id,
      });
    });
  }

  /** What a link is for, so the page can say it before asking for a password. */
  async describeLink(token: string): Promise<LinkDetails> {
    const link = await this.usableLink(this.deps.db.prisma, token);
    const account = await this.deps.db.prisma.account.findUniqueOrThrow({ where: { id: link.accountId } });
    return {
      kind: link.userId === null ? "invitation" : "reset",
      email: link.email,
      role: link.role,
      accountName: account.name,
      expiresAt: link.expiresAt,
    };
  }

  /**
   * Uses a link once: an invitation makes the member (with `name`), a reset link sets the member's new
   * password; either way the person is signed in. Attempts count against the client address like logins.
   */
  async accept(
    input: { token?: unknown; name?: unknown; password?: unknown },
    clientAddress: string,
    report: RateLimitReporter,
  ): Promise<LoginResult> {
    const data = parseInput(AcceptInput, input);
    const { rateLimits } = this.parts;
    await rateLimits.consume("loginAddress", clientAddress, report, TOO_MANY_ATTEMPTS);
    await this.usableLink(this.deps.db.prisma, data.token);
    const passwordHash = await hashPassword(data.password);
    const result = await this.deps.db.prisma.$transaction(async (tx) => {
      const link = await this.usableLink(tx, data.token);
      // Conditional on still being unused: of two concurrent acceptances, one wins.
      const { count } = await tx.invitation.updateMany({
        where: { id: link.id, acceptedAt: null, revokedAt: null },
        data: { acceptedAt: new Date() },
      });
      if (count === 0) throw new InvitationInvalidError("used");
      let user: { id: number; accountId: number; email: string };
      if (link.userId === null) {
        if (!data.name) throw ValidationError.single("name", "The name field is required.");
        const taken = await tx.user.findUnique({ where: { email: link.email } });
        if (taken) throw ValidationError.single("email", "The email has already been taken.");
        user = await tx.user.create({
          data: {
            accountId: link.accountId,
            email: link.email,
            name: data.name,
            role: link.role,
            passwordHash,
          },
        });
      } else {
        user = await tx.user.update({
          where: { id: link.userId },
          data: { passwordHash, ...(data.name ? { name: data.name } : {}) },
        });
      }
      await this.audit(
        tx,
        link.userId === null ? "member.joined" : "member.password_reset",
        link.accountId,
        { kind: "user", id: user.id, userId: user.id, ip: clientAddress },
        { type: "user", id: user.id },
        { email: user.email, ...(link.userId === null ? { role: link.role } : { step: "password_set" }) },
      );
      return this.parts.auth.openSession(tx, user, clientAddress);
    });
    await rateLimits.reward("loginAddress", clientAddress);
    this.deps.logger.info("link accepted", { userId: result.userId });
    return result;
  }

  /** Changes a member's role. Only an owner makes or unmakes owners; the last owner stays one. */
  async changeRole(
    viewer: Viewer,
    input: { userId: number; role?: unknown },
    clientAddress: string,
  ): Promise<AccountMember> {
    const role = parseInput(z.object({ role: roleInput }), { role: input.role }).role;
    const actorRole = await this.parts.auth.roleOf(viewer);
    requireManager(actorRole);
    const member = await this.deps.db.prisma.$transaction(async (tx) => {
      const target = await this.lockedMember(tx, viewer.accountId, input.userId);
      if ((target.role === "owner" || role === "owner") && actorRole !== "owner") {
        throw new RoleNotAllowedError(actorRole, "the owner role");
      }
      if (target.role === "owner" && role !== "owner")
        await this.keepAnOwner(tx, viewer.accountId, target.id);
      const updated = await tx.user.update({
        where: { id: target.id },
        data: { role },
        select: { id: true, name: true, email: true, role: true, createdAt: true },
      });
      await this.audit(
        tx,
        "member.role_changed",
        viewer.accountId,
        actorOf(viewer, clientAddress),
        {
          type: "user",
          id: target.id,
        },
        { email: target.email, from: target.role, to: role },
      );
      return updated;
    });
    this.deps.logger.info("member role changed", { accountId: viewer.accountId, userId: member.id, role });
    return member;
  }

  /**
   * Removes a member: their sessions and the API keys they created end with them (at once, on every
   * instance). The assistants they created stay with the account, handed to its first owner.
   */
  async remove(viewer: Viewer, userId: number, clientAddress: string): Promise<void> {
    const actorRole = await this.parts.auth.roleOf(viewer);
    requireManager(actorRole);
    const ended = await this.deps.db.prisma.$transaction(async (tx) => {
      const target = await this.lockedMember(tx, viewer.accountId, userId);
      if (target.role === "owner" && actorRole !== "owner")
        throw new RoleNotAllowedError(actorRole, "the owner role");
      if (target.role === "owner") await this.keepAnOwner(tx, viewer.accountId, target.id);
      const heir = await tx.user.findFirstOrThrow({
        where: { accountId: viewer.accountId, role: "owner", id: { not: target.id } },
        orderBy: { id: "asc" },
        select: { id: true },
      });
      await tx.assistant.updateMany({ where: { userId: target.id }, data: { userId: heir.id } });
      const keys = await tx.apiKey.findMany({ where: { userId: target.id }, select: { id: true } });
      const sessions = await tx.sessionToken.findMany({ where: { userId: target.id }, select: { id: true } });
      await tx.user.delete({ where: { id: target.id } });
      await this.audit(
        tx,
        "member.removed",
        viewer.accountId,
        actorOf(viewer, clientAddress),
        {
          type: "user",
          id: target.id,
        },
        { email: target.email, role: target.role, apiKeysDeleted: keys.length },
      );
      return { keys, sessions };
    });
    for (const { id } of ended.keys) this.parts.credentials.revoked({ kind: "apiKey", id });
    for (const { id } of ended.sessions) this.parts.credentials.revoked({ kind: "session", id });
    this.deps.logger.info("member removed", { accountId: viewer.accountId, userId });
  }

  /**
   * An admin's password reset: the old password stops working and every session of the member ends at
   * once; the returned link (shown once) lets the member set a new password. Their API keys stay.
   */
  async resetPassword(
    viewer: Viewer,
    userId: number,
    clientAddress: string,
  ): Promise<{ token: string; expiresAt: Date; emailStatus: InvitationEmailStatus }> {
    const actorRole = await this.parts.auth.roleOf(viewer);
    requireManager(actorRole);
    const token = mintLinkToken();
    const expiresAt = new Date(Date.now() + RESET_TTL_MS);
    const link = await this.deps.db.prisma.$transaction(async (tx) => {
      const target = await this.lockedMember(tx, viewer.accountId, userId);
      if (target.role === "owner" && actorRole !== "owner")
        throw new RoleNotAllowedError(actorRole, "the owner role");
      await tx.invitation.updateMany({
        where: { userId: target.id, acceptedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      // Not a scrypt hash: no password matches it (see password.ts), so the old one is void at once.
      await tx.user.update({
        where: { id: target.id },
        data: { passwordHash: `reset$${randomBytes(16).toString("hex")}` },
      });
      const created = await tx.invitation.create({
        data: {
          accountId: viewer.accountId,
          email: target.email,
          role: target.role,
          userId: target.id,
          tokenHash: hashToken(token),
          createdById: viewer.userId,
          expiresAt,
          ...this.parts.emails.initialEmail(),
        },
      });
      await this.audit(
        tx,
        "member.password_reset",
        viewer.accountId,
        actorOf(viewer, clientAddress),
        {
          type: "user",
          id: target.id,
        },
        { email: target.email, step: "link_issued" },
      );
      return created;
    });
    await this.parts.auth.revokeSessionsOf(userId);
    this.deps.logger.info("member password reset", { accountId: viewer.accountId, userId });
    this.parts.emails.dispatch(link, token);
    return { token, expiresAt, emailStatus: link.emailStatus };
  }

  /** The member of the account, its row locked with the account's so owner counts cannot race. */
  private async lockedMember(tx: Prisma.TransactionClient, accountId: number, userId: number) {
    await tx.$queryRaw`SELECT "id" FROM "accounts" WHERE "id" = ${accountId} FOR UPDATE`;
    const target = await tx.user.findFirst({ where: { id: userId, accountId } });
    if (!target) throw new NotFoundError("Member");
    return target;
  }

  private async keepAnOwner(
    tx: Prisma.TransactionClient,
    accountId: number,
    leavingId: number,
  ): Promise<void> {
    const others = await tx.user.count({ where: { accountId, role: "owner", id: { not: leavingId } } });
    if (others === 0) throw new LastOwnerError();
  }

  private async usableLink(client: Prisma.TransactionClient, token: string): Promise<Invitation> {
    if (!token.startsWith(INVITE_PREFIX) || token.length > 200) throw new InvitationInvalidError("unknown");
    const link = await client.invitation.findUnique({ where: { tokenHash: hashToken(token) } });
    if (!link) throw new InvitationInvalidError("unknown");
    if (link.acceptedAt) throw new InvitationInvalidError("used");
    if (link.revokedAt) throw new InvitationInvalidError("revoked");
    if (link.expiresAt.getTime() <= Date.now()) throw new InvitationInvalidError("expired");
    return link;
  }

  private audit(
    tx: Prisma.TransactionClient,
    type:
      | "member.invited"
      | "member.invitation_revoked"
      | "member.joined"
      | "member.role_changed"
      | "member.removed"
      | "member.password_reset",
    accountId: number,
    actor: Actor,
    target: { type: string; id: number },
    details: Prisma.InputJsonObject = {},
  ): Promise<void> {
    return this.parts.events.emit(tx, { type, accountId, actor, target, details });
  }
}
