import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import {
  MailNotConfiguredError,
  NotFoundError,
  RateLimitedError,
  RoleNotAllowedError,
} from "../../errors.ts";
import { actorOf, type EventSink } from "../../events.ts";
import type { Invitation, InvitationEmailStatus } from "../../generated/prisma/client.ts";
import type { AuthService, Viewer } from "../auth/index.ts";
import { requireManager } from "../auth/index.ts";
import { hashToken } from "../auth/tokens.ts";
import { MailDeliveryError, type Mailer } from "../mail/index.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { type LinkEmail, linkEmail } from "./link-email.ts";
import { INVITATION_TTL_MS, linkPath, mintLinkToken } from "./links.ts";

const INTERRUPTED = "The server stopped before this email went out. Resend it, or copy the link.";
/** Beyond the mailer's own bound: the status write after a send, on a loaded database. */
const ABANDON_MARGIN_MS = 15_000;
const TOO_MANY_EMAILS =
  "Too many emails from this account in the last hour. Please try again later, or copy the link.";

/**
 * Invitation and reset links by email (docs/console.md#team), when the server has a mail server. The
 * email goes out after the link is committed and never holds up or fails the change: the link's row
 * records how it went (`emailStatus`, `emailError`). The token lives only in memory until then: only
 * its hash is stored, so an email cut short by a restart is not retried: it reads as failed once the
 * longest send is over (`emailOf`), and `resend` mints a new link.
 */
export class InvitationEmails implements Lifecycle {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      mailer: Mailer | null;
      auth: AuthService;
      rateLimits: RateLimitsService;
      events: EventSink;
    },
  ) {}

  get enabled(): boolean {
    return this.parts.mailer !== null;
  }

  /** What a new link's row records before its email is tried. */
  initialEmail(): { emailStatus: InvitationEmailStatus; emailQueuedAt: Date | null } {
    return this.enabled
      ? { emailStatus: "sending", emailQueuedAt: new Date() }
      : { emailStatus: "not_configured", emailQueuedAt: null };
  }

  /**
   * A link's email as it stands: a send still "sending" past the mailer's longest send was cut short
   * (its server stopped; the token is gone with it), and reads as failed, with what to do.
   */
  emailOf(link: Pick<Invitation, "emailStatus" | "emailError" | "emailQueuedAt">): {
    status: InvitationEmailStatus;
    error: string | null;
  } {
    const queuedAt = link.emailQueuedAt?.getTime() ?? 0;
    if (link.emailStatus === "sending" && Date.now() - queuedAt > this.abandonedAfterMs())
      return { status: "failed", error: INTERRUPTED };
    return { status: link.emailStatus, error: link.emailError };
  }

  /** The mailer's longest send (every stage's timeout, capped at twice one) and a margin. */
  private abandonedAfterMs(): number {
    return 2 * (this.deps.config.mail?.timeoutMs ?? 0) + ABANDON_MARGIN_MS;
  }

  /**
   * Emails a committed link's `token` in the background; `charged` when its email already counts
   * against the account's hourly budget. Returns at once; `stop` awaits what is under way.
   */
  dispatch(link: Invitation, token: string, options: { charged?: boolean } = {}): void {
    if (!this.enabled) return;
    const delivery = this.deliver(link, token, options.charged ?? false).catch((error: unknown) =>
      this.deps.logger.error("invitation email: status not recorded", { invitationId: link.id, error }),
    );
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  /**
   * Emails a pending invitation again with a new link (the previous one stops working), good for
   * another week; the new link also comes back, shown once. Counts against the account's hourly
   * budget at once (RATE_LIMITED), not in the background.
   */
  async resend(
    viewer: Viewer,
    id: number,
    clientAddress: string,
    report: RateLimitReporter,
  ): Promise<{ invitation: Invitation; token: string }> {
    const actorRole = await this.parts.auth.roleOf(viewer);
    requireManager(actorRole);
    if (!this.enabled) throw new MailNotConfiguredError();
    const pending = {
      id,
      accountId: viewer.accountId,
      userId: null,
      acceptedAt: null,
      revokedAt: null,
      expiresAt: { gt: new Date() },
    };
    const current = await this.deps.db.prisma.invitation.findFirst({ where: pending });
    if (!current) throw new NotFoundError("Invitation");
    // A new owner link is what an owner alone may make.
    if (current.role === "owner" && actorRole !== "owner")
      throw new RoleNotAllowedError(actorRole, "the owner role");
    await this.parts.rateLimits.consume("memberEmail", String(viewer.accountId), report, TOO_MANY_EMAILS);
    const token = mintLinkToken();
    const invitation = await this.deps.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.invitation.updateMany({
        where: pending,
        data: {
          tokenHash: hashToken(token),
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
          emailStatus: "sending",
          emailQueuedAt: new Date(),
          emailError: null,
          emailSentAt: null,
        },
      });
      if (count === 0) throw new NotFoundError("Invitation");
      await this.parts.events.emit(tx, {
        type: "member.invitation_resent",
        accountId: viewer.accountId,
        actor: actorOf(viewer, clientAddress),
        target: { type: "invitation", id },
        details: { email: current.email, role: current.role },
      });
      return tx.invitation.findUniqueOrThrow({ where: { id } });
    });
    this.dispatch(invitation, token, { charged: true });
    return { invitation, token };
  }

  start(): void {}

  async stop(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(link: Invitation, token: string, charged: boolean): Promise<void> {
    const mailer = this.parts.mailer!;
    let outcome: { emailStatus: "sent"; emailSentAt: Date } | { emailStatus: "failed"; emailError: string };
    try {
      if (!charged) {
        await this.parts.rateLimits.consume("memberEmail", String(link.accountId), () => {}, TOO_MANY_EMAILS);
      }
      await mailer.send(linkEmail(await this.contents(link, token)));
      outcome = { emailStatus: "sent", emailSentAt: new Date() };
      this.deps.logger.info("invitation email sent", { invitationId: link.id });
    } catch (error) {
      const expected = error instanceof MailDeliveryError || error instanceof RateLimitedError;
      const reason = expected ? error.message : "The email could not be sent.";
      outcome = { emailStatus: "failed", emailError: reason };
      this.deps.logger.warn("invitation email failed", {
        invitationId: link.id,
        reason,
        ...(expected ? {} : { error }),
      });
    }
    // Only for this token: a resend since then owns the row's status.
    await this.deps.db.prisma.invitation.updateMany({
      where: { id: link.id, tokenHash: hashToken(token) },
      data: outcome,
    });
  }

  private async contents(link: Invitation, token: string): Promise<LinkEmail> {
    const { prisma } = this.deps.db;
    const [account, sender] = await Promise.all([
      prisma.account.findUniqueOrThrow({ where: { id: link.accountId }, select: { name: true } }),
      link.createdById === null
        ? null
        : prisma.user.findUnique({ where: { id: link.createdById }, select: { name: true, email: true } }),
    ]);
    return {
      kind: link.userId === null ? "invitation" : "reset",
      to: link.email,
      role: link.role,
      accountName: account.name,
      sender,
      link: `${this.deps.config.publicBaseUrl}${linkPath(token)}`,
      expiresAt: link.expiresAt,
    };
  }
}
