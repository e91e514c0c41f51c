import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError } from "../../errors.ts";
import { type Actor, type EventSink, systemActor } from "../../events.ts";
import type { Call, TransferDestination } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import type { CallTransferRecords, TransferMiss } from "../calls/index.ts";
import {
  type FunctionCallRecord,
  type FunctionSet,
  type ReplyEngine,
  refused,
  runBuiltin,
} from "../message-pipeline/index.ts";
import type { CallDesk, TransferCarrier, TransferDesk } from "../telephony/index.ts";
import { parseTranscript } from "../telephony/transcript.ts";
import { TRANSFER_CALL_TOOL_NAME, transferCallDefinition } from "./call-functions.ts";
import { type TransferDestinationsService, transferPhoneNumber } from "./transfer-destinations.service.ts";

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
  // A warm transfer's leg that was answered and declined.
  completed: "they cannot take the call right now",
};

/** What the chat model is asked for a warm transfer's briefing. */
const BRIEFING_PROMPT = [
  "You brief a person of the business who is about to take over a phone call from its AI assistant.",
  "From the conversation you are given, say in two or three short spoken sentences who is calling (if known) and what they need.",
  "No greeting, no lists, nothing the conversation does not say.",
].join(" ");

const TakeOverInput = z.object({ phoneNumber: transferPhoneNumber });

/** What a transfer leg is called when an operator takes the call over. */
export const OPERATOR_DESTINATION = "an operator";

/** A transfer to start: its leg, where it rings, and how the person who answers is briefed. */
interface ArmedTransfer {
  legCallId: number;
  to: string;
  warm: boolean;
  instructions: string;
  assistantName: string;
}

/** Characters of the conversation a briefing is written from (its latest part). */
const BRIEFING_TRANSCRIPT_CHARS = 8000;

/**
 * Phone transfers (docs/transfers.md#phone-transfers): `transfer_call` on a live phone call offers
 * the assistant's destinations open now. The function records the leg (its first minute reserved)
 * and arms the transfer; the carrier connects the caller once the assistant's turn with the
 * handover sentence was spoken. The carrier reports the leg's outcome here (`TransferDesk`): an
 * answer connects the caller (`call.transferred`), anything else brings the caller back to the
 * assistant (`call.transfer_failed`), whose next session opens by saying so and offering another way.
 *
 * A warm destination's leg first plays a briefing (written by the chat model from the transcript and
 * the destination's instructions) to the person who answers, who accepts or declines.
 */
export class CallTransfersService implements TransferDesk {
  /** Transfers whose handover sentence is being said, by the call of the session saying it: the leg. */
  private readonly armed = new Map<number, ArmedTransfer>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      destinations: Pick<TransferDestinationsService, "openNow">;
      /** Writes warm transfers' briefings. */
      engine: Pick<ReplyEngine, "generate" | "modelConfigured">;
      records: CallTransferRecords;
      carrier: TransferCarrier;
      /** Where a leg that never rang is failed, and the transcript notes go. */
      desk: () => Pick<CallDesk, "callEvent" | "transcriptLine">;
      /** Where take-overs are reported (call.taken_over, audited). */
      events: EventSink;
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

  private offered(accountId: number, assistantId: number): Promise<TransferDestination[]> {
    return this.parts.destinations.openNow(accountId, assistantId);
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
      this.armed.set(call.id, {
        legCallId: leg.id,
        to,
        warm: destination.mode === "warm",
        instructions: destination.briefingInstructions,
        assistantName: original.assistantName,
      });
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
    await this.start(callId, armed);
  }

  /**
   * An operator of the account takes a live phone call over (docs/transfers.md#take-over): a warm
   * transfer to their own phone, started at once (the assistant is cut off, not asked). The person who
   * answers hears the briefing and accepts or declines; declined or unanswered, the caller comes back
   * to the assistant. Answers the leg.
   */
  async takeOver(
    accountId: number,
    callId: number,
    input: { phoneNumber: unknown },
    actor: Actor = systemActor,
  ): Promise<Call> {
    const { phoneNumber } = parseInput(TakeOverInput, input);
    const original = await this.deps.db.prisma.call.findFirst({ where: { id: callId, accountId } });
    if (!original) throw new NotFoundError("Call");
    if (original.type === "web") {
      throw new AppError("CONFLICT", "A web call cannot be taken over by phone.");
    }
    if (this.armed.has(callId))
      throw new AppError("CONFLICT", "A transfer of this call is already under way.");
    const leg = await this.parts.records.startLeg(original, {
      to: phoneNumber,
      destinationName: OPERATOR_DESTINATION,
    });
    this.deps.logger.info("call taken over by an operator", { callId, legCallId: leg.id });
    // Audited once its leg exists, whether or not the operator's phone then answers.
    await this.deps.db.prisma.$transaction((tx) =>
      this.parts.events.emit(tx, {
        type: "call.taken_over",
        accountId,
        actor,
        target: { type: "call", id: callId },
        details: { legCallId: leg.id, phoneNumber },
      }),
    );
    const refusal = await this.start(callId, {
      legCallId: leg.id,
      to: phoneNumber,
      warm: true,
      instructions: "",
      assistantName: original.assistantName,
    });
    if (refusal) throw refusal;
    return leg;
  }

  /**
   * Writes a warm transfer's briefing and asks the carrier to connect the caller to the leg; answers
   * the carrier's refusal (the leg then failed, the call is as it was), or null once it rings.
   */
  private async start(callId: number, armed: ArmedTransfer): Promise<AppError | null> {
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { providerCallId: true, assistantPhoneNumber: true, accountId: true, transcript: true },
    });
    if (!call) return null;
    let placed: { legProviderCallId: string | null };
    try {
      const briefing = armed.warm ? await this.briefing(call, armed) : null;
      if (briefing)
        await this.parts.desk().transcriptLine(armed.legCallId, { speaker: "assistant", text: briefing });
      placed = await this.parts.carrier.transferCall({
        callId,
        providerCallId: call.providerCallId,
        legCallId: armed.legCallId,
        from: call.assistantPhoneNumber,
        to: armed.to,
        ...(briefing ? { briefing } : {}),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // The carrier kept the call as it was: the assistant is still on the line.
      await this.legNeverRang(armed.legCallId, error.message);
      return error;
    }
    if (placed.legProviderCallId)
      await this.parts.records.legPlaced(armed.legCallId, placed.legProviderCallId);
    return null;
  }

  /**
   * A warm transfer's briefing: the chat model's summary of the conversation so far, following the
   * destination's briefing instructions; without a model (or when it fails), the caller's last words.
   */
  private async briefing(
    call: { accountId: number; transcript: string },
    armed: Pick<ArmedTransfer, "instructions" | "assistantName">,
  ): Promise<string> {
    const lines = parseTranscript(call.transcript);
    const lastWords = lines.findLast((line) => line.speaker === "customer")?.text ?? "";
    const fallback = `A caller transferred by ${armed.assistantName || "the assistant"}.${lastWords ? ` They said: ${lastWords}` : ""}`;
    if (!this.parts.engine.modelConfigured) return fallback;
    try {
      const { reply } = await this.parts.engine.generate({
        accountId: call.accountId,
        assistant: {
          name: "Briefing",
          systemPrompt: `${BRIEFING_PROMPT}${armed.instructions ? `\n\nWhat the briefing covers: ${armed.instructions}` : ""}`,
          initialMessage: "",
          timezone: "UTC",
          llmTemperature: "0.2",
          knowledgebaseId: null,
          knowledgebaseMode: "hybrid",
          tools: [],
        },
        history: [{ role: "user", content: call.transcript.slice(-BRIEFING_TRANSCRIPT_CHARS) }],
        passages: [],
        variables: {},
      });
      return reply.trim() || fallback;
    } catch (error) {
      this.deps.logger.warn("transfer briefing not generated; the caller's last words are used", { error });
      return fallback;
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

  async transferAnswered(legCallId: number): Promise<number | null> {
    const decided = await this.parts.records.connected(legCallId);
    if (!decided) return null;
    await this.parts.desk().transcriptLine(decided.original.id, {
      speaker: "assistant",
      text: `(Transferred to ${decided.leg.transferDestinationName}.)`,
    });
    return decided.original.id;
  }

  async transferMissed(legCallId: number, outcome: TransferMiss) {
    const decided = await this.parts.records.missed(legCallId, outcome);
    if (!decided) return null;
    const name = decided.leg.transferDestinationName;
    await this.parts.desk().transcriptLine(decided.original.id, {
      speaker: "assistant",
      text:
        outcome === "declined"
          ? `(${name} declined the transfer.)`
          : `(The transfer to ${name} was not answered: ${outcome}.)`,
    });
    return { callId: decided.original.id, providerCallId: decided.original.providerCallId };
  }

  async briefingFor(legCallId: number): Promise<string | null> {
    const found = await this.parts.records.legOf(legCallId);
    const first = found ? parseTranscript(found.leg.transcript)[0] : undefined;
    return first?.speaker === "assistant" ? first.text : null;
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
