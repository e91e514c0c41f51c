import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import type { EventSink } from "../../events.ts";

/**
 * A connection's status, kept honest and announced: the change from active to broken (and back)
 * is one conditional update, so of two instances seeing the same refusal exactly one makes the
 * transition, and its calendar.connection_broken (or _restored) event is recorded in that same
 * transaction. A connection already broken only gets its lastError brought up to date.
 */
export class ConnectionStatus {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly events: EventSink,
    private readonly clock: Clock,
  ) {}

  broken(id: number, lastError: string): Promise<void> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      const now = this.clock.now();
      const { count } = await tx.calendarConnection.updateMany({
        where: { id, status: "active" },
        data: { status: "broken", lastError, checkedAt: now },
      });
      if (count === 0) {
        await tx.calendarConnection.updateMany({ where: { id }, data: { lastError, checkedAt: now } });
        return;
      }
      const connection = await tx.calendarConnection.findUniqueOrThrow({ where: { id } });
      await this.events.emit(tx, { type: "calendar.connection_broken", connection });
      this.deps.logger.warn("calendar connection broken", {
        accountId: connection.accountId,
        connectionId: id,
        lastError,
      });
    });
  }

  restored(id: number): Promise<void> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.calendarConnection.updateMany({
        where: { id, status: "broken" },
        data: { status: "active", lastError: null, checkedAt: this.clock.now() },
      });
      if (count === 0) return;
      const connection = await tx.calendarConnection.findUniqueOrThrow({ where: { id } });
      await this.events.emit(tx, { type: "calendar.connection_restored", connection });
      this.deps.logger.info("calendar connection restored", {
        accountId: connection.accountId,
        connectionId: id,
      });
    });
  }
}
