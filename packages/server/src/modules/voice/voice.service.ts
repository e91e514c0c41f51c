import type { ServiceDeps } from "../../deps.ts";
import type { AssistantMode } from "../../generated/prisma/client.ts";
import type { AppointmentsService } from "../appointments/index.ts";
import type { CallLifecycle } from "../calls/index.ts";
import {
  type CallHandoffsService,
  type CallHandover,
  type CallTransfersService,
  TRANSFER_CALL_TOOL_NAME,
} from "../handoffs/index.ts";
import {
  AT_CAPACITY_REASON,
  AT_CAPACITY_WORDS,
  type MediaStream,
  type MediaStreamHandler,
} from "../media/index.ts";
import {
  END_CALL_TOOL_NAME,
  historyWindow,
  primitiveVariables,
  type ReplyEngine,
  type ReplyRequest,
} from "../message-pipeline/index.ts";
import type { TextsService } from "../texts/index.ts";
import { AmbientStream, ambientBed, ambientKind } from "./ambient.ts";
import type { CallProviders } from "./call-providers.ts";
import { CallSpeech, type DeploymentProviders, type StreamingSpeech } from "./call-speech.ts";
import type { CallTurnsService } from "./call-turns.service.ts";
import type { DetectorRegistry } from "./detectors.ts";
import { LIVE_CALL_COLUMNS, type LiveAssistant, type LiveCall, sessionSettingsOf } from "./live-call.ts";
import { LiveCallFunctions, type TestCallSetup } from "./live-call-functions.ts";
import type { LiveSessions } from "./live-sessions.ts";
import { PipelineSession } from "./pipeline-session.ts";
import type { RealtimeConnection, RealtimeSessionOptions } from "./realtime-client.ts";
import { modelAudioFormat, RealtimeSession } from "./realtime-session.ts";
import { semanticWaits } from "./semantic-turn.ts";
import type {
  Handover,
  PipelinePorts,
  PipelineReply,
  SessionPorts,
  SessionSettings,
} from "./session-ports.ts";
import { endpointMs } from "./turn-detector.ts";

/** What a caller hears when the realtime model of a multimodal or dualplex assistant cannot be reached. */
export const MODEL_UNAVAILABLE =
  "Sorry, our assistant is not available right now. Please call again later. Goodbye.";

/**
 * Who answers a live call now (docs/transfers.md#live-call-hand-offs): the call's assistant, or the
 * one a `handoff` moved it to, with what its replies are made of. The session's ports read it.
 */
interface Answering {
  assistant: LiveAssistant;
  request: Omit<ReplyRequest, "history" | "passages">;
  providers: CallProviders;
  /** The call speaks through a streaming voice when its assistant's has one (pipeline mode, audio). */
  streams: boolean;
  speech: StreamingSpeech | null;
  /** A hand-off recorded during the reply in progress: applied once that reply was spoken. */
  handedOver: CallHandover | null;
}

/** What a session factory builds a session from: the call, its stream (and the stream as sent, with ambience). */
interface SessionSetup {
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

/** Caller audio per append to a realtime model: bench/voice measured the trade (see its README). */
const REALTIME_APPEND_MS = 60;

/**
 * The media plane's entry: each connected media stream of a running call gets a session speaking
 * for its assistant in the assistant's mode (pipeline, or a realtime model in multimodal and
 * dualplex), within the instance's capacity (`VOXGATE_MAX_LIVE_MEDIA_SESSIONS`); past it the caller
 * hears a short refusal and the call ends `ended_by_assistant`.
 */
export class VoiceService implements MediaStreamHandler {
  private live = 0;
  private readonly speech: CallSpeech;
  private readonly functions: LiveCallFunctions;
  /** How a call's session is built, by the assistant's mode. */
  private readonly sessionFactories: Record<AssistantMode, SessionFactory> = {
    pipeline: async (setup) => this.pipelineSession(setup),
    multimodal: (setup) => this.realtimeSession(setup),
    dualplex: (setup) => this.realtimeSession(setup),
  };

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: DeploymentProviders & {
      calls: Pick<CallLifecycle, "endByAssistant" | "customerHungUp">;
      /** This instance's live sessions, where an answering machine's beep reaches the session of its call. */
      live: LiveSessions;
      replyEngine: ReplyEngine;
      turns: CallTurnsService;
      /** `send_sms` on phone calls from an SMS-capable number: texts the caller. */
      texts: TextsService;
      /** The calendar functions of assistants with appointment types. */
      appointments: Pick<AppointmentsService, "functionsFor">;
      /** `transfer_call` of assistants with transfer destinations open now, and the caller's return. */
      transfers?: Pick<CallTransfersService, "functionsFor" | "turnSpoken" | "forget" | "returnGreeting">;
      /** The end-of-turn detection of each `endpoint_type` (voice activity and turn detectors). */
      detectors: DetectorRegistry;
      /** `handoff` between the account's assistants on live calls; without it none is offered. */
      handoffs?: Pick<CallHandoffsService, "functionsFor">;
      /** Agent tests' calls: their functions and the run's overrides (the agent tests module). */
      testCalls?: () => TestCallSetup;
    },
  ) {
    this.speech = new CallSpeech(deps, parts);
    this.functions = new LiveCallFunctions(parts);
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
      await calls.endByAssistant(stream.callId, AT_CAPACITY_REASON, AT_CAPACITY_WORDS);
      return;
    }
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: stream.callId },
      select: LIVE_CALL_COLUMNS,
    });
    if (!call?.assistant || call.status !== "in_progress") {
      logger.warn("media stream for a call that is not running", { callId: stream.callId });
      stream.close();
      return;
    }
    const testCalls = call.test ? this.parts.testCalls?.() : undefined;
    const assistant = testCalls ? await testCalls.settingsFor(call.id, call.assistant) : call.assistant;
    const settings = sessionSettingsOf(assistant, assistant.mode === "pipeline", this.parts.detectors);
    const { transfers } = this.parts;
    // Back from a transfer nobody answered: the assistant says so first, knowing the conversation so far.
    const back = (await transfers?.returnGreeting(call.id)) ?? null;
    if (back) {
      settings.initialMessage = back;
      settings.waitForCustomer = false;
    }
    const earlier = back ? await this.parts.turns.history(call.id) : [];
    const request: Answering["request"] = {
      accountId: call.accountId,
      assistant,
      variables: primitiveVariables(call.variables),
      functions: await this.functions.forAssistant(
        call,
        assistant.id,
        (handover) => (answering.handedOver = handover),
      ),
    };
    // Counted from here: connecting to a realtime model takes a while, and calls arriving meanwhile count too.
    this.live += 1;
    stream.onClose(() => {
      this.live -= 1;
    });
    const media = await withAmbience(
      stream,
      assistant.ambientSound,
      Number(assistant.ambientSoundVolume.toString()),
    );
    const providers = await this.speech.providersFor(call.accountId, assistant);
    // Realtime modes speak through their model, and a text stream has no audio: no socket for them.
    const streams = assistant.mode === "pipeline" && !stream.text;
    const answering: Answering = {
      assistant,
      request,
      providers,
      streams,
      speech: streams
        ? this.speech.streamingSpeech(providers, assistant.voice, settings.speechSpeed, stream)
        : null,
      handedOver: null,
    };
    // The providers and `settings` are read at each use: a hand-off changes them (the session updates
    // `settings` in place).
    const ports: SessionSetup["ports"] = {
      logger,
      transcribe: (wav, signal) =>
        answering.providers.transcriber.transcribe(wav, { language: settings.language, signal }),
      synthesize: async (text, signal) => {
        const { synthesizer } = answering.providers;
        return {
          sampleRate: synthesizer.outputFormat.sampleRate,
          audio: await synthesizer.synthesize(text, {
            voice: settings.voice,
            speed: settings.speechSpeed,
            signal,
          }),
        };
      },
      ...(answering.speech ? { openSpeech: answering.speech.openSpeech } : {}),
      turn: async (turn) => {
        await this.parts.turns.record(call, turn);
        // A transfer armed in this turn goes ahead once its handover sentence was said.
        if (turn.speaker === "assistant" && turn.text.trim()) await transfers?.turnSpoken(call.id);
      },
      hangUp: (reason) => calls.endByAssistant(call.id, reason),
      callerLeft: () => calls.customerHungUp(call.id),
    };
    // A text stream (a simulated call) has no audio for a realtime model: its turns are the
    // pipeline's whatever the mode, answered by the chat model with the same prompt and tools.
    const build = this.sessionFactories[stream.text ? "pipeline" : assistant.mode];
    stream.onClose(() => {
      transfers
        ?.forget(call.id)
        .catch((error: unknown) =>
          logger.warn("could not drop a transfer of a closed call", { callId: call.id, error }),
        );
    });
    const session = await build({
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
    });
    if (!session) return;
    logger.info("media session started", {
      callId: call.id,
      streamId: stream.streamId,
      mode: assistant.mode,
    });
    this.parts.live.add(call.id, session);
    stream.onClose(() => this.parts.live.remove(call.id));
    session.start();
  }

  /**
   * Moves the call's replies to the assistant a `handoff` named: its prompt, knowledge, functions and
   * providers from here, and what the session takes over (its settings and streaming voice). Null
   * when the target is gone meanwhile.
   */
  private async handOver(
    call: LiveCall,
    stream: MediaStream,
    answering: Answering,
    handover: CallHandover,
  ): Promise<Handover | null> {
    const { logger } = this.deps;
    const assistant = await this.deps.db.prisma.assistant.findFirst({
      where: { id: handover.to.assistantId, accountId: call.accountId, deletedAt: null },
      select: LIVE_CALL_COLUMNS.assistant.select,
    });
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
      this.functions.forAssistant(call, assistant.id, (next) => (answering.handedOver = next)),
      this.speech.providersFor(call.accountId, assistant),
    ]);
    let speech = answering.speech;
    if (answering.streams) {
      const next = this.speech.streamingVoice(providers, assistant.voice, settings.speechSpeed);
      if (next?.key !== speech?.key || next?.synthesizer !== speech?.synthesizer) {
        // Between turns nothing is in flight on the old voice's socket.
        speech?.connection.close();
        speech = next ? this.speech.connectSpeech(next, settings.speechSpeed, stream) : null;
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
            handover: () => this.handOver(call, stream, answering, handedOver),
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
          ...(handedOver ? { handover: () => this.handOver(call, stream, answering, handedOver) } : {}),
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
          const handover = handedOver && (await this.handOver(call, stream, answering, handedOver));
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

/** The stream with the assistant's `ambient_sound` under everything it sends, or as it is for `none` (and text). */
async function withAmbience(stream: MediaStream, sound: string, volume: number): Promise<MediaStream> {
  const kind = ambientKind(sound);
  if (!kind || volume <= 0 || stream.text) return stream;
  return new AmbientStream(stream, await ambientBed(kind, stream.format.sampleRate), volume);
}

/** `endpoint_sensitivity` as semantic VAD's eagerness: more sensitive ends turns sooner. */
function eagerness(sensitivity: number): "low" | "medium" | "high" {
  if (sensitivity < 1 / 3) return "low";
  return sensitivity > 2 / 3 ? "high" : "medium";
}
