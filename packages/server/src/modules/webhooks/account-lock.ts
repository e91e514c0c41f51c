import type { Prisma } from "../../generated/prisma/client.ts";

/** Namespace of the webhook module's advisory locks (any constant; "WH"). */
export const LOCK_NAMESPACE = 0x5748;

/**
 * Holds one account's lock until `tx` ends: its delivery claims take turns (so its count of running
 * deliveries is exact across instances), and so do changes to its signing secrets.
 */
export async function lockAccount(tx: Prisma.TransactionClient, accountId: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${accountId}::integer)`;
}
