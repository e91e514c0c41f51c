import type { ServiceDeps } from "../../deps.ts";
import type { AssistantMode } from "../../generated/prisma/client.ts";
import type { CallLifecycle } from "../calls/index.ts";
import { TRANSFER_CALL_TOOL_NAME } from "../handoffs/index.ts";
import type { MediaStream } from "../media/index.ts";
import {
  END_CALL_TOOL_NAME,
  historyWindow,
  type ReplyEngine,
  type ReplyRequest,
} from "../message-pipeline/index.ts";
import type { Answering, AnsweringHandovers } from "./answering.ts";
import type { CallProviders } from "./call-providers.ts";
import type { LiveAssistant, LiveCall } from "./live-call.ts";
import { PipelineSession } from "./pipeline-session.ts";
import { modelAudioFormat } from "./realtime-audio.ts";
import type { RealtimeConnection, RealtimeSessionOptions } from "./realtime-client.ts";
import { RealtimeSession } from "./realtime-session.ts";
import { semanticWaits } from "./semantic-turn.ts";
import type { PipelinePorts, PipelineReply, SessionPorts, SessionSettings } from "./session-ports.ts";
import { endpointMs } from "./turn-detector.ts";

/** What a caller hears when the realtime model of a multimodal or dualplex assistant cannot be reached. */
const MODEL_UNAVAILABLE =
  "Sorry, our assistant is not available right now. Please call again later. Goodbye.";

/** Caller audio per append to a realtime model: bench/voice measured the trade (see its README). */
const REALTIME_APPEND_MS = 60;

/** What a session factory builds a session from: the call, its stream (and the stream as sent, with ambience). */
export interface SessionSetup {
  call: LiveCall;
  assistant: LiveAssistant;
  /** Who answers now: a pipeline call's replies read it, and a hand-off changes it. */
  answering: Answering;
  stream: MediaStream;
  media: MediaStream;
  settings: SessionSettings;
  ports: SessionPorts & Pick<PipelinePorts, "openSpeech">;
  request: Omit<ReplyRequest, "history" | "passages">;
  /** What the assistant's catalogue selection and the account's keys pick (call-providers.ts). */
  providers: CallProviders;
  /** The conversation before a transfer nobody answered, which the caller came back from (else empty). */
  earlier: { role: "user" | "assistant"; content: string }[];
}

/** Builds a call's session, or ends the call and answers null when it cannot run. */
type SessionFactory = (setup: SessionSetup) => Promise<PipelineSession | RealtimeSession | null>;

/** How a call's session is built, by the assistant's mode. */
export class SessionFactories {
  private readonly byMode: Record<AssistantMode, SessionFactory> = {
    pipeline: async (setup) => this.pipelineSession(setup),
    multimodal: (setup) => this.realtimeSession(setup),
    dualplex: (setup) => this.realtimeSession(setup),
  };

  constructor(
    private readonly deps: Pick<ServiceDeps, "config" | "logger">,
    private readonly parts: {
      calls: Pick<CallLifecycle, "endByAssistant">;
      replyEngine: ReplyEngine;
      handovers: AnsweringHandovers;
    },
  ) {}

  /** The session of a call whose assistant runs in `mode`, or null when the call could not go on (ended). */
  build(mode: AssistantMode, setup: SessionSetup): Promise<PipelineSession | RealtimeSession | null> {
    return this.byMode[mode](setup);
  }

  /** The pipeline: speech-to-text, the chat model's reply, text-to-speech (and any text stream). */
  private pipelineSession({
    call,
    answering,
    stream,
    media,
    settings,
    ports,
    providers,
    earlier,
  }: SessionSetup): PipelineSession {
    const engine = this.parts.replyEngine;
    const { handovers } = this.parts;
    const streaming = stream.text ? null : providers.streamingTranscriber;
    return new PipelineSession(media, settings, {
      ...ports,
      ...(streaming && {
        openTranscription: (events) =>
          streaming.open(
            {
              format: stream.format,
              language: settings.language,
              endpointingMs: settings.semanticEndOfTurn
                ? semanticWaits(settings.endpointSensitivity).settled
                : endpointMs(settings.endpointSensitivity),
            },
            events,
          ),
      }),
      reply: async (history, onDelta, _signal, functions): Promise<PipelineReply> => {
        const question = history.findLast((message) => message.role === "user")?.content ?? "";
        const passages = await engine.knowledgeFor(call.accountId, answering.assistant, question);
        let result: Awaited<ReturnType<ReplyEngine["generate"]>>;
        try {
          result = await engine.generate({
            ...answering.request,
            history: earlier.length > 0 ? [...earlier, ...history] : history,
            passages,
            onDelta,
            liveCall: functions,
          });
        } catch (error) {
          const handedOver = answering.handedOver;
          answering.handedOver = null;
          if (!handedOver) throw error;
          // The hand-off was recorded before the model failed: it stands, and the caller's next turn
          // is the new assistant's (this one goes unanswered, as any failed reply).
          this.deps.logger.warn(
            "a reply failed after its hand-off; the new assistant answers the next turn",
            {
              callId: call.id,
              error,
            },
          );
          return {
            text: "",
            endCall: false,
            handover: () => handovers.handOver(call, stream, answering, handedOver),
          };
        }
        // The hand-off takes effect once this reply was spoken (the handover sentence in the old voice).
        const handedOver = answering.handedOver;
        answering.handedOver = null;
        return {
          text: result.reply,
          // A test call's transfer is stubbed: the assistant's part ends there, as when a real one connects.
          endCall: result.functionCalls.some(
            (record) =>
              !record.error &&
              (record.name === END_CALL_TOOL_NAME || (call.test && record.name === TRANSFER_CALL_TOOL_NAME)),
          ),
          functionCalls: result.functionCalls,
          ...(handedOver ? { handover: () => handovers.handOver(call, stream, answering, handedOver) } : {}),
        };
      },
    });
  }

  /** A realtime model hears the caller and answers: in its own voice (multimodal) or as text spoken by us (dualplex). */
  private async realtimeSession({
    call,
    assistant,
    answering,
    stream,
    media,
    settings,
    ports,
    request,
    providers,
    earlier,
  }: SessionSetup): Promise<RealtimeSession | null> {
    const { logger } = this.deps;
    const engine = this.parts.replyEngine;
    const { handovers } = this.parts;
    let model: RealtimeConnection;
    try {
      model = await providers.realtime.connect(call.id);
    } catch (error) {
      logger.warn("realtime model unavailable; the call ends", { callId: call.id, error });
      // Twilio speaks the apology and ends the stream (which releases the capacity).
      await this.parts.calls.endByAssistant(
        call.id,
        "The speech model could not be reached.",
        MODEL_UNAVAILABLE,
      );
      return null;
    }
    const { instructions, tools } = engine.liveCallSetup(request);
    const options: RealtimeSessionOptions = {
      instructions,
      tools,
      output: assistant.mode === "multimodal" ? "audio" : "text",
      voice: settings.voice,
      speed: settings.speechSpeed,
      temperature: Number(assistant.llmTemperature.toString()),
      audioFormat: modelAudioFormat(stream.format),
      appendMs: REALTIME_APPEND_MS,
      transcribeModel: this.deps.config.voice.transcribeModel,
      language: settings.language,
      turnDetection:
        assistant.endpointType === "semantic"
          ? { type: "semantic_vad", eagerness: eagerness(settings.endpointSensitivity) }
          : { type: "server_vad", silenceMs: endpointMs(settings.endpointSensitivity) },
      createResponse: !settings.waitForCustomer,
      // Bounded as the pipeline's replies bound the history they send.
      ...(earlier.length > 0 ? { history: historyWindow(earlier) } : {}),
    };
    return new RealtimeSession(
      media,
      settings,
      {
        ...ports,
        runFunction: async (name, args, functions) => {
          const record = await engine.runLiveFunction(
            { ...answering.request, history: [], passages: [], liveCall: functions },
            name,
            args,
          );
          const handedOver = answering.handedOver;
          answering.handedOver = null;
          const handover = handedOver && (await handovers.handOver(call, stream, answering, handedOver));
          return {
            output: JSON.stringify(record.error ? { error: record.error } : { result: record.result }),
            endCall: record.name === END_CALL_TOOL_NAME && !record.error,
            record,
            ...(handover ? { handover: { ...handover, ...engine.liveCallSetup(answering.request) } } : {}),
          };
        },
      },
      model,
      options,
    );
  }
}

/** `endpoint_sensitivity` as semantic VAD's eagerness: more sensitive ends turns sooner. */
function eagerness(sensitivity: number): "low" | "medium" | "high" {
  if (sensitivity < 1 / 3) return "low";
  return sensitivity > 2 / 3 ? "high" : "medium";
}
