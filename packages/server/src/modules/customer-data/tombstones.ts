import type { ServiceDeps } from "../../deps.ts";
import { type CustomerIdentifier, identifierHash } from "./identifiers.ts";

/**
 * The tombstones of erased customers: a salted hash per identifier, so that the account can tell a
 * number it erased without keeping it.
 */
export class Tombstones {
  constructor(private readonly deps: ServiceDeps) {}

  async has(accountId: number, who: CustomerIdentifier): Promise<boolean> {
    return (await this.find(accountId, who)) !== null;
  }

  /** Whether the number is an erased customer's who had opted out of texts (and not opted in since). */
  async textsOptedOut(accountId: number, phoneNumber: string): Promise<boolean> {
    return (await this.find(accountId, { kind: "phone", value: phoneNumber }))?.textsOptedOut ?? false;
  }

  private async find(accountId: number, who: CustomerIdentifier) {
    const prisma = this.deps.db.prisma;
    // No salt yet: the account never erased anybody (nor made a salt by asking).
    const salt = await prisma.customerDataSalt.findUnique({ where: { accountId } });
    if (!salt) return null;
    return prisma.customerTombstone.findUnique({
      where: {
        accountId_identifierKind_identifierHash: {
          accountId,
          identifierKind: who.kind,
          identifierHash: identifierHash(salt.salt, who),
        },
      },
      select: { textsOptedOut: true },
    });
  }
}
