import type { ServiceDeps } from "../../deps.ts";
import type { CallsService } from "../calls/index.ts";
import { END_CALL_TOOL_NAME, type ReplyEngine, replyAssistantColumns } from "../message-pipeline/index.ts";
import type { MediaStream, MediaStreamHandler } from "../telephony/provider.ts";
import type { CallTurnsService } from "./call-turns.service.ts";
import { SpeechClient } from "./speech-client.ts";
import { PipelineSession, type SessionSettings } from "./voice-session.ts";

/** What a caller hears when this instance already carries as many calls as it may. */
export const CAPACITY_REFUSAL =
  "Sorry, we cannot take your call right now. Please call again later. Goodbye.";

/** A catalogue voice without a provider voice speaks with this one. */
const DEFAULT_PROVIDER_VOICE = "alloy";

type Primitive = string | number | boolean | null;

/**
 * The media plane's entry: each connected media stream of a running call gets a session speaking
 * for its assistant, within the instance's capacity (`VOXGATE_MAX_LIVE_MEDIA_SESSIONS`); past it
 * the caller hears a short refusal and the call ends `ended_by_assistant`.
 */
export class VoiceService implements MediaStreamHandler {
  private readonly speech: SpeechClient;
  private live = 0;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { calls: CallsService; replyEngine: ReplyEngine; turns: CallTurnsService },
  ) {
    this.speech = new SpeechClient(deps.config.voice);
  }

  /** Sessions this instance runs now. */
  get liveSessions(): number {
    return this.live;
  }

  async handle(stream: MediaStream): Promise<void> {
    const { logger } = this.deps;
    const { calls } = this.parts;
    if (this.live >= this.deps.config.voice.maxLiveSessions) {
      logger.warn("media session refused: instance at capacity", { callId: stream.callId, live: this.live });
      await calls.endByAssistant(stream.callId, "The server was at capacity.", CAPACITY_REFUSAL);
      return;
    }
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: stream.callId },
      select: {
        id: true,
        accountId: true,
        status: true,
        variables: true,
        assistant: {
          select: {
            ...replyAssistantColumns,
            language: true,
            waitForCustomer: true,
            allowInterruptions: true,
            interruptSensitivity: true,
            endpointSensitivity: true,
            maxSilenceDuration: true,
            reengagementInterval: true,
            speechSpeed: true,
            voice: { select: { providerVoiceId: true } },
          },
        },
      },
    });
    if (!call?.assistant || call.status !== "in_progress") {
      logger.warn("media stream for a call that is not running", { callId: stream.callId });
      stream.close();
      return;
    }
    const assistant = call.assistant;
    const settings: SessionSettings = {
      initialMessage: assistant.initialMessage,
      waitForCustomer: assistant.waitForCustomer,
      allowInterruptions: assistant.allowInterruptions,
      interruptSensitivity: assistant.interruptSensitivity,
      endpointSensitivity: assistant.endpointSensitivity,
      maxSilenceDuration: assistant.maxSilenceDuration,
      reengagementInterval: assistant.reengagementInterval,
      language: assistant.language,
      voice: assistant.voice?.providerVoiceId || DEFAULT_PROVIDER_VOICE,
      speechSpeed: Number(assistant.speechSpeed.toString()),
    };
    const variables = primitives(call.variables);
    const engine = this.parts.replyEngine;
    this.live += 1;
    stream.onClose(() => {
      this.live -= 1;
    });
    const session = new PipelineSession(stream, settings, {
      logger,
      transcribe: (wav, signal) => this.speech.transcribe(wav, { language: settings.language, signal }),
      synthesize: (text, signal) =>
        this.speech.synthesize(text, { voice: settings.voice, speed: settings.speechSpeed, signal }),
      reply: async (history, onDelta) => {
        const question = history.findLast((message) => message.role === "user")?.content ?? "";
        const passages = await engine.knowledgeFor(call.accountId, assistant, question);
        const result = await engine.generate({
          accountId: call.accountId,
          assistant,
          history,
          passages,
          variables,
          onDelta,
          endCallTool: true,
        });
        return {
          text: result.reply,
          endCall: result.functionCalls.some((record) => record.name === END_CALL_TOOL_NAME && !record.error),
        };
      },
      turn: (turn) => this.parts.turns.record(call, turn),
      hangUp: (reason) => calls.endByAssistant(call.id, reason),
      callerLeft: () => calls.customerHungUp(call.id),
    });
    logger.info("media session started", { callId: call.id, streamId: stream.streamId });
    session.start();
  }
}

function primitives(value: unknown): Record<string, Primitive> {
  const result: Record<string, Primitive> = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return result;
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null || ["string", "number", "boolean"].includes(typeof entry)) {
      result[key] = entry as Primitive;
    }
  }
  return result;
}
