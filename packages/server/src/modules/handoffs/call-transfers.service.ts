import type { ServiceDeps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { TransferDestination } from "../../generated/prisma/client.ts";
import type { CallTransferRecords, TransferMiss } from "../calls/index.ts";
import { type FunctionCallRecord, type FunctionSet, refused, runBuiltin } from "../message-pipeline/index.ts";
import type { CallDesk, TransferCarrier, TransferDesk } from "../telephony/index.ts";
import { TRANSFER_CALL_TOOL_NAME, transferCallDefinition } from "./call-functions.ts";
import type { TransferDestinationsService } from "./transfer-destinations.service.ts";

/** The call a live session runs, as the transfer function needs it. */
export interface TransferableCall {
  id: number;
  accountId: number;
  assistantId: number | null;
  type: "inbound" | "outbound" | "web";
}

const MISSED_WORDS: Record<string, string> = {
  busy: "the line is busy",
  no_answer: "nobody answered",
};

/**
 * Phone transfers (docs/transfers.md#phone-transfers): `transfer_call` on a live phone call offers
 * the assistant's destinations open now. The function records the leg (its first minute reserved)
 * and arms the transfer; the carrier connects the caller once the assistant's turn with the
 * handover sentence was spoken. The carrier reports the leg's outcome here (`TransferDesk`): an
 * answer connects the caller (`call.transferred`), anything else brings the caller back to the
 * assistant (`call.transfer_failed`), whose next session opens by saying so and offering another way.
 *
 * Warm destinations are not offered on calls: only cold transfers are built (the docs say so).
 */
export class CallTransfersService implements TransferDesk {
  /** Transfers whose handover sentence is being said, by the call of the session saying it: the leg. */
  private readonly armed = new Map<number, { legCallId: number; to: string }>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      destinations: Pick<TransferDestinationsService, "openNow">;
      records: CallTransferRecords;
      carrier: TransferCarrier;
      /** Where a leg that never rang is failed, and the transcript notes go. */
      desk: () => Pick<CallDesk, "callEvent" | "transcriptLine">;
    },
  ) {}

  /** `transfer_call` for a live phone call whose assistant has destinations open now; null otherwise. */
  async functionsFor(call: TransferableCall): Promise<FunctionSet | null> {
    if (call.type === "web" || call.assistantId === null) return null;
    const open = await this.offered(call.accountId, call.assistantId);
    if (open.length === 0) return null;
    return {
      definitions: () => [transferCallDefinition(open)],
      run: async (name, args) => (name === TRANSFER_CALL_TOOL_NAME ? this.arm(call, args) : undefined),
    };
  }

  private async offered(accountId: number, assistantId: number): Promise<TransferDestination[]> {
    const open = await this.parts.destinations.openNow(accountId, assistantId);
    return open.filter((destination) => destination.mode === "cold");
  }

  /**
   * The model asked for a transfer: the destination must be one the assistant offers now (read again:
   * hours may have closed since the call started). The leg is recorded at once, so that a refusal
   * (no balance, a transfer already under way) is the model's to tell.
   */
  private async arm(call: TransferableCall, args: Record<string, unknown>): Promise<FunctionCallRecord> {
    const name = TRANSFER_CALL_TOOL_NAME;
    const id = Number(args.destination_id);
    const open = call.assistantId === null ? [] : await this.offered(call.accountId, call.assistantId);
    const destination = open.find((candidate) => candidate.id === id);
    if (!destination) {
      return refused(
        name,
        "That destination cannot be reached now. Offer the caller another way: take a message or arrange a callback.",
        args,
      );
    }
    if (this.armed.has(call.id)) return refused(name, "A transfer of this call is already under way.", args);
    return runBuiltin(name, args, async () => {
      const original = await this.deps.db.prisma.call.findUnique({ where: { id: call.id } });
      if (!original) throw new AppError("CONFLICT", "The call cannot be transferred now.");
      const to = destination.phoneNumber ?? destination.sipUri ?? "";
      const leg = await this.parts.records.startLeg(original, { to, destinationName: destination.name });
      this.armed.set(call.id, { legCallId: leg.id, to });
      return {
        transferring: true,
        destination: destination.name,
        tell_caller: `Say one short sentence that you are connecting them to ${destination.name} now, and nothing else: the transfer starts once you said it.`,
      };
    });
  }

  /** An assistant turn of `callId` was spoken: a transfer armed in it (its handover sentence said) goes ahead. */
  async turnSpoken(callId: number): Promise<void> {
    const armed = this.armed.get(callId);
    if (!armed) return;
    this.armed.delete(callId);
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { providerCallId: true, assistantPhoneNumber: true },
    });
    if (!call) return;
    try {
      await this.parts.carrier.transferCall({
        callId,
        providerCallId: call.providerCallId,
        legCallId: armed.legCallId,
        from: call.assistantPhoneNumber,
        to: armed.to,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // The carrier kept the call as it was: the assistant is still on the line.
      await this.legNeverRang(armed.legCallId, error.message);
    }
  }

  /** The session of `callId` closed: a transfer armed in it and not started never rings. */
  async forget(callId: number): Promise<void> {
    const armed = this.armed.get(callId);
    if (!armed) return;
    this.armed.delete(callId);
    await this.legNeverRang(armed.legCallId, "The call ended before the transfer started.");
  }

  private async legNeverRang(legCallId: number, reason: string) {
    this.deps.logger.warn("call transfer not started", { legCallId, reason });
    await this.parts.desk().callEvent({ callId: legCallId, status: "failed", reason });
    await this.parts.records.missed(legCallId, "failed");
  }

  async transferAnswered(legCallId: number): Promise<void> {
    const decided = await this.parts.records.connected(legCallId);
    if (!decided) return;
    await this.parts.desk().transcriptLine(decided.original.id, {
      speaker: "assistant",
      text: `(Transferred to ${decided.leg.transferDestinationName}.)`,
    });
  }

  async transferMissed(legCallId: number, outcome: TransferMiss): Promise<number | null> {
    const decided = await this.parts.records.missed(legCallId, outcome);
    if (!decided) return null;
    await this.parts.desk().transcriptLine(decided.original.id, {
      speaker: "assistant",
      text: `(The transfer to ${decided.leg.transferDestinationName} was not answered: ${outcome}.)`,
    });
    return decided.original.id;
  }

  /**
   * What the assistant says first when the caller comes back from a transfer nobody answered (once),
   * or null for any other session start.
   */
  async returnGreeting(callId: number): Promise<string | null> {
    const back = await this.parts.records.takeBack(callId);
    if (!back) return null;
    const why = MISSED_WORDS[back.outcome] ?? "the call could not be connected";
    return `I'm sorry, I could not reach ${back.destinationName}: ${why}. I can take a message or arrange for someone to call you back. What would you prefer?`;
  }
}
