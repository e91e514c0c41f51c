import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { LastOwnerError, NotFoundError, RoleNotAllowedError } from "../../errors.ts";
import { type Actor, actorOf, type EventSink } from "../../events.ts";
import type { InvitationEmailStatus, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import type { AuthService, CredentialCache, MemberRole, Viewer } from "../auth/index.ts";
import { MEMBER_ROLES, requireManager } from "../auth/index.ts";
import { hashToken } from "../auth/tokens.ts";
import type { InvitationEmails } from "./invitation-emails.service.ts";
import { linkPath, mintLinkToken, RESET_TTL_MS } from "./links.ts";

export interface AccountMember {
  id: number;
  name: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
}

export const roleInput = z.enum(MEMBER_ROLES as [MemberRole, ...MemberRole[]], {
  error: "The role field must be owner, admin or agent.",
});

/**
 * The people of an account and their roles (docs/console.md#team): role changes and removals that
 * never leave an account without an owner, and reset links shown once. Invitations and the use of
 * links are InvitationsService's.
 */
export class MembersService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      auth: AuthService;
      credentials: CredentialCache;
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

  private audit(
    tx: Prisma.TransactionClient,
    type: "member.role_changed" | "member.removed" | "member.password_reset",
    accountId: number,
    actor: Actor,
    target: { type: string; id: number },
    details: Prisma.InputJsonObject = {},
  ): Promise<void> {
    return this.parts.events.emit(tx, { type, accountId, actor, target, details });
  }
}
