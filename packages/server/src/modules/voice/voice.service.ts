import type { ServiceDeps } from "../../deps.ts";
import type { AppointmentsService } from "../appointments/index.ts";
import type { CallLifecycle } from "../calls/index.ts";
import type { CallHandoffsService, CallTransfersService } from "../handoffs/index.ts";
import {
  AT_CAPACITY_REASON,
  AT_CAPACITY_WORDS,
  type MediaStream,
  type MediaStreamHandler,
} from "../media/index.ts";
import { primitiveVariables, type ReplyEngine } from "../message-pipeline/index.ts";
import type { TextsService } from "../texts/index.ts";
import { AmbientStream, ambientBed, ambientKind } from "./ambient.ts";
import { type Answering, AnsweringHandovers } from "./answering.ts";
import { CallSpeech, type DeploymentProviders } from "./call-speech.ts";
import type { CallTurnsService } from "./call-turns.service.ts";
import type { DetectorRegistry } from "./detectors.ts";
import { findLiveCall, sessionSettingsOf } from "./live-call.ts";
import { LiveCallFunctions, type TestCallSetup } from "./live-call-functions.ts";
import type { LiveSessions } from "./live-sessions.ts";
import { SessionFactories, type SessionSetup } from "./session-factories.ts";

/**
 * The media plane's entry: each connected media stream of a running call gets a session speaking
 * for its assistant in the assistant's mode (pipeline, or a realtime model in multimodal and
 * dualplex), within the instance's capacity (`VOXGATE_MAX_LIVE_MEDIA_SESSIONS`); past it the caller
 * hears a short refusal and the call ends `ended_by_assistant`. The sessions are built by
 * session-factories.ts, and a hand-off changes who answers through answering.ts.
 */
export class VoiceService implements MediaStreamHandler {
  private live = 0;
  private readonly speech: CallSpeech;
  private readonly functions: LiveCallFunctions;
  private readonly sessions: SessionFactories;

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
    const handovers = new AnsweringHandovers(deps, {
      detectors: parts.detectors,
      functions: this.functions,
      speech: this.speech,
    });
    this.sessions = new SessionFactories(deps, {
      calls: parts.calls,
      replyEngine: parts.replyEngine,
      handovers,
    });
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
    const call = await findLiveCall(this.deps.db.prisma, stream.callId);
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
    const mode = stream.text ? "pipeline" : assistant.mode;
    stream.onClose(() => {
      transfers
        ?.forget(call.id)
        .catch((error: unknown) =>
          logger.warn("could not drop a transfer of a closed call", { callId: call.id, error }),
        );
    });
    const session = await this.sessions.build(mode, {
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
}

/** The stream with the assistant's `ambient_sound` under everything it sends, or as it is for `none` (and text). */
async function withAmbience(stream: MediaStream, sound: string, volume: number): Promise<MediaStream> {
  const kind = ambientKind(sound);
  if (!kind || volume <= 0 || stream.text) return stream;
  return new AmbientStream(stream, await ambientBed(kind, stream.format.sampleRate), volume);
}
