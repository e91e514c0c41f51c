import type { ServiceDeps } from "../../deps.ts";
import type { CallHandover } from "../handoffs/index.ts";
import type { MediaStream } from "../media/index.ts";
import type { ReplyRequest } from "../message-pipeline/index.ts";
import type { CallProviders } from "./call-providers.ts";
import type { CallSpeech, StreamingSpeech } from "./call-speech.ts";
import type { DetectorRegistry } from "./detectors.ts";
import { findLiveAssistant, type LiveAssistant, type LiveCall, sessionSettingsOf } from "./live-call.ts";
import type { LiveCallFunctions } from "./live-call-functions.ts";
import type { Handover } from "./session-ports.ts";

/**
 * Who answers a live call now (docs/transfers.md#live-call-hand-offs): the call's assistant, or the
 * one a `handoff` moved it to, with what its replies are made of. The session's ports read it.
 */
export interface Answering {
  assistant: LiveAssistant;
  request: Omit<ReplyRequest, "history" | "passages">;
  providers: CallProviders;
  /** The call speaks through a streaming voice when its assistant's has one (pipeline mode, audio). */
  streams: boolean;
  speech: StreamingSpeech | null;
  /** A hand-off recorded during the reply in progress: applied once that reply was spoken. */
  handedOver: CallHandover | null;
}

/** A live call's hand-offs: what changes when another of the account's assistants answers it. */
export class AnsweringHandovers {
  constructor(
    private readonly deps: Pick<ServiceDeps, "db" | "logger">,
    private readonly parts: {
      /** The end-of-turn detection of each `endpoint_type`. */
      detectors: DetectorRegistry;
      functions: LiveCallFunctions;
      speech: CallSpeech;
    },
  ) {}

  /**
   * Moves the call's replies to the assistant a `handoff` named: its prompt, knowledge, functions and
   * providers from here, and what the session takes over (its settings and streaming voice). Null
   * when the target is gone meanwhile.
   */
  async handOver(
    call: LiveCall,
    stream: MediaStream,
    answering: Answering,
    handover: CallHandover,
  ): Promise<Handover | null> {
    const { logger } = this.deps;
    const assistant = await findLiveAssistant(this.deps.db.prisma, call.accountId, handover.to.assistantId);
    if (!assistant) {
      logger.warn("the assistant a call was handed to is gone; the answering one keeps it", {
        callId: call.id,
        to: handover.to.assistantId,
      });
      return null;
    }
    // End of turn stays the call's (the session keeps it), whatever the new assistant's mode.
    const settings = sessionSettingsOf(assistant, true, this.parts.detectors);
    const [functions, providers] = await Promise.all([
      this.parts.functions.forAssistant(call, assistant.id, (next) => (answering.handedOver = next)),
      this.parts.speech.providersFor(call.accountId, assistant),
    ]);
    let speech = answering.speech;
    if (answering.streams) {
      const next = this.parts.speech.streamingVoice(providers, assistant.voice, settings.speechSpeed);
      if (next?.key !== speech?.key || next?.synthesizer !== speech?.synthesizer) {
        // Between turns nothing is in flight on the old voice's socket.
        speech?.connection.close();
        speech = next ? this.parts.speech.connectSpeech(next, settings.speechSpeed, stream) : null;
      }
    }
    const from = answering.assistant.name;
    Object.assign(answering, {
      assistant,
      request: { ...answering.request, assistant, functions },
      providers,
      speech,
    });
    logger.info("live call answered by another assistant", {
      callId: call.id,
      from: handover.from,
      to: assistant.id,
      voice: settings.voice,
      streamingVoice: speech?.key ?? null,
    });
    return {
      settings,
      ...(speech ? { openSpeech: speech.openSpeech } : {}),
      marker: `Handed over from ${from} to ${assistant.name}${handover.reason ? ` (${handover.reason})` : ""}.`,
    };
  }
}
