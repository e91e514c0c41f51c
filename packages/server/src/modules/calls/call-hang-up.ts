import type { ServiceDeps } from "../../deps.ts";
import type { Call } from "../../generated/prisma/client.ts";
import type { CallCarrier } from "../telephony/provider.ts";
import { ACTIVE_DB_STATUSES, type ApiCallStatus, toDbStatus } from "./call-status.ts";

/** `providerName` of a browser web call: carried by Voxgate's own WebSocket, billed by the minute. */
export const WEB_CARRIER = "web";

/** What the assistant says when Voxgate ends a call itself. */
export const FAREWELLS = {
  balance: "I'm sorry, I have to end the call here. Goodbye.",
  maxDuration: "I'm sorry, we have reached the time limit for this call. Goodbye.",
} as const;

/**
 * Voxgate ending a call itself, through the call's carrier (the phone carrier, or the web call
 * sockets for a browser call). It only asks: the end arrives as the carrier's event, which takes
 * the status and reason remembered here.
 */
export class CallHangUps {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly carriers: {
      carrier: CallCarrier;
      /** Hangs up browser web calls (their socket may be on another instance). */
      webCarrier: () => Pick<CallCarrier, "hangUp">;
      /** Carries agent tests' calls (`test`), whatever carrier serves real ones: the simulation. */
      testCarrier: Pick<CallCarrier, "hangUp">;
    },
  ) {}

  /** Asks the carrier to end a call, remembering the status and reason it should end with. */
  async hangUp(call: Call, as: ApiCallStatus, reason: string, farewell?: string): Promise<Call> {
    const prisma = this.deps.db.prisma;
    await prisma.call.updateMany({
      where: { id: call.id, requestedEnd: null, status: { in: [...ACTIVE_DB_STATUSES] } },
      data: { requestedEnd: toDbStatus(as), endReason: reason },
    });
    const carrier = call.test
      ? this.carriers.testCarrier
      : call.providerName === WEB_CARRIER
        ? this.carriers.webCarrier()
        : this.carriers.carrier;
    await carrier.hangUp(
      { callId: call.id, providerCallId: call.providerCallId, answered: call.status === "in_progress" },
      farewell,
    );
    this.deps.logger.info("call hang-up requested", { callId: call.id, as, reason });
    return prisma.call.findUniqueOrThrow({ where: { id: call.id } });
  }
}
