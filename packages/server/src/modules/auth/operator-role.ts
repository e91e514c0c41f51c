import type { PrismaClient } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { Viewer } from "./viewer.ts";

/**
 * Refuses a caller whose account is not a platform operator. Read from the database on every call,
 * not cached with the credential: a role taken away applies at once.
 */
export async function requireOperator(prisma: PrismaClient, viewer: Viewer, action: string): Promise<void> {
  const account = await prisma.account.findUnique({
    where: { id: viewer.accountId },
    select: { isOperator: true },
  });
  if (!account?.isOperator) throw new AppError("FORBIDDEN", `Only platform operators may ${action}.`);
}
