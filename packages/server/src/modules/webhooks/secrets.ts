import type { ServiceDeps } from "../../deps.ts";
import { ValidationError } from "../../errors.ts";
import { lockAccount } from "./account-lock.ts";
import { newSecret } from "./signing.ts";

/** The longest a retired secret keeps signing after a rotation. */
const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 3600;

/** Each account's signing secrets: the one that signs, those retiring, and rotations. */
export class WebhookSecrets {
  constructor(private readonly deps: ServiceDeps) {}

  /** The secrets that sign now: the current one and any retiring within its overlap window. */
  async signingSecrets(accountId: number): Promise<string[]> {
    const prisma = this.deps.db.prisma;
    const active = await prisma.webhookSecret.findMany({
      where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      orderBy: { id: "desc" },
    });
    if (active.length > 0) return active.map((row) => row.secret);
    // Nobody was given one yet (a test event before any assistant turned webhooks on): deliveries are
    // still signed; the first assistant with webhooks on, or a rotation, gives the owner a secret.
    const created = await prisma.webhookSecret.create({ data: { accountId, secret: newSecret() } });
    return [created.secret];
  }

  /**
   * The account's first secret its owner sees, made now if it has never been given one: a secret
   * made earlier to sign a delivery nobody has seen is replaced (nobody can be verifying with it).
   */
  async issueFirstSecret(accountId: number): Promise<string | null> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      await lockAccount(tx, accountId);
      if ((await tx.webhookSecret.count({ where: { accountId, shownAt: { not: null } } })) > 0) return null;
      await tx.webhookSecret.deleteMany({ where: { accountId } });
      const created = await tx.webhookSecret.create({
        data: { accountId, secret: newSecret(), shownAt: new Date() },
      });
      return created.secret;
    });
  }

  /**
   * A new signing secret, returned this once. The previous one keeps signing for `overlapSeconds`
   * (default a day), so receivers can switch without rejecting a delivery.
   */
  async rotateSecret(accountId: number, overlapSeconds: number | null | undefined) {
    const overlap = overlapSeconds ?? 24 * 3600;
    if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_SECRET_OVERLAP_SECONDS) {
      throw ValidationError.single(
        "overlapSeconds",
        `The overlap seconds field must be an integer between 0 and ${MAX_SECRET_OVERLAP_SECONDS}.`,
      );
    }
    const now = new Date();
    const prisma = this.deps.db.prisma;
    return prisma.$transaction(async (tx) => {
      await lockAccount(tx, accountId);
      const retiresAt = new Date(now.getTime() + overlap * 1000);
      await tx.webhookSecret.updateMany({
        where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: retiresAt } }] },
        data: { expiresAt: retiresAt },
      });
      await tx.webhookSecret.deleteMany({ where: { accountId, expiresAt: { lte: now } } });
      const created = await tx.webhookSecret.create({
        data: { accountId, secret: newSecret(), shownAt: now },
      });
      return {
        secret: created.secret,
        createdAt: created.createdAt,
        previousExpiresAt: overlap > 0 ? retiresAt : null,
      };
    });
  }

  /** When the account's signing secrets were made and until when they sign; never the secrets. */
  secrets(accountId: number) {
    return this.deps.db.prisma.webhookSecret.findMany({
      where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      orderBy: { id: "desc" },
      select: { id: true, createdAt: true, expiresAt: true },
    });
  }
}
