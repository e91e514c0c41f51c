import type { ServiceDeps } from "../../deps.ts";
import { type CustomerIdentifier, identifierHash } from "./identifiers.ts";

/**
 * The tombstones of erased customers: a salted hash per identifier, so that the account can tell a
 * number it erased without keeping it.
 */
export class Tombstones {
  constructor(private readonly deps: ServiceDeps) {}

  async has(accountId: number, who: CustomerIdentifier): Promise<boolean> {
    const prisma = this.deps.db.prisma;
    // No salt yet: the account never erased anybody (nor made a salt by asking).
    const salt = await prisma.customerDataSalt.findUnique({ where: { accountId } });
    if (!salt) return false;
    const found = await prisma.customerTombstone.count({
      where: { accountId, identifierKind: who.kind, identifierHash: identifierHash(salt.salt, who) },
    });
    return found > 0;
  }
}
