import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { actorOf, type EventSink } from "../../events.ts";
import type { Viewer } from "../auth/index.ts";

/** The most listens `callListens` returns (newest first): more than a call is ever listened to. */
export const MAX_LISTENS_LISTED = 200;

/**
 * The audit log of live listening: a row when a listen starts (who: the user and the credential,
 * from where), completed when it ends (why, frames sent and dropped). Read by the account, per call.
 */
export class ListenAudit {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly events: EventSink,
  ) {}

  /** Also reported as call.listen_started (the account's audit log), in the same transaction. */
  async started(viewer: Viewer, callId: number, clientAddress: string): Promise<number> {
    const row = await this.deps.db.prisma.$transaction(async (tx) => {
      const created = await tx.callListen.create({
        data: {
          accountId: viewer.accountId,
          callId,
          userId: viewer.userId,
          credentialKind: viewer.credential.kind,
          credentialId: viewer.credential.id,
          clientAddress,
        },
        select: { id: true },
      });
      await this.events.emit(tx, {
        type: "call.listen_started",
        accountId: viewer.accountId,
        actor: actorOf(viewer, clientAddress),
        target: { type: "call", id: callId },
        details: { listenId: created.id },
      });
      return created;
    });
    this.deps.logger.info("live listen started", { listenId: row.id, callId, userId: viewer.userId });
    return row.id;
  }

  async ended(listenId: number, reason: string, framesSent: number, framesDropped: number): Promise<void> {
    await this.deps.db.prisma.callListen.update({
      where: { id: listenId },
      data: { endedAt: new Date(), endReason: reason, framesSent, framesDropped },
    });
    this.deps.logger.info("live listen ended", { listenId, reason, framesSent, framesDropped });
  }

  /** The listens of one of the account's calls, newest first; another account's call is not found. */
  async forCall(accountId: number, callId: number) {
    const { prisma } = this.deps.db;
    if ((await prisma.call.count({ where: { id: callId, accountId } })) === 0)
      throw new NotFoundError("Call");
    return prisma.callListen.findMany({
      where: { callId, accountId },
      orderBy: { id: "desc" },
      take: MAX_LISTENS_LISTED,
    });
  }
}
