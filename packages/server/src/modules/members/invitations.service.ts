import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { InvitationInvalidError, NotFoundError, RoleNotAllowedError, ValidationError } from "../../errors.ts";
import { type Actor, actorOf, type EventSink } from "../../events.ts";
import type { Invitation, Prisma } from "../../generated/prisma/client.ts";
import { emailAddress, parseInput, requiredString } from "../../validation.ts";
import type { LoginResult } from "../auth/auth.service.ts";
import type { AuthService, MemberRole, Viewer } from "../auth/index.ts";
import { requireManager } from "../auth/index.ts";
import { hashPassword } from "../auth/password.ts";
import { hashToken } from "../auth/tokens.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import type { InvitationEmails } from "./invitation-emails.service.ts";
import { INVITATION_TTL_MS, INVITE_PREFIX, mintLinkToken } from "./links.ts";
import { roleInput } from "./members.service.ts";

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

const InviteInput = z.object({ email: emailAddress(), role: roleInput });
const AcceptInput = z.object({
  token: z.string({ error: "The token field is required." }).min(1).max(200),
  name: requiredString("name").optional(),
  password,
});

const TOO_MANY_ATTEMPTS = "Too many attempts. Please try again later.";

/**
 * Invitations to an account and the use of its links (docs/console.md#team): an invitation's token
 * is shown once and only its hash kept; accepting an invitation or a reset link signs the person in.
 */
export class InvitationsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      auth: AuthService;
      rateLimits: RateLimitsService;
      events: EventSink;
      emails: InvitationEmails;
    },
  ) {}

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
    type: "member.invited" | "member.invitation_revoked" | "member.joined" | "member.password_reset",
    accountId: number,
    actor: Actor,
    target: { type: string; id: number },
    details: Prisma.InputJsonObject = {},
  ): Promise<void> {
    return this.parts.events.emit(tx, { type, accountId, actor, target, details });
  }
}
