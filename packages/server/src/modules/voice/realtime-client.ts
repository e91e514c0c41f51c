import WebSocket from "ws";
import type { VoiceConfig } from "../../env.ts";
import { UpstreamFailedError } from "../../errors.ts";
import { MAX_REALTIME_EVENT_BYTES } from "../../limits.ts";
import type { Logger } from "../../logger.ts";
import type { RealtimeFunction } from "../message-pipeline/index.ts";

/** What a live call asks of its realtime session. */
export interface RealtimeSessionOptions {
  instructions: string;
  tools: RealtimeFunction[];
  /** `audio`: the model speaks (multimodal); `text`: it writes and our text-to-speech speaks (dualplex). */
  output: "audio" | "text";
  voice: string;
  speed: number;
  temperature: number;
  /** G.711 mu-law both ways (a phone's frames pass through untouched), or 24 kHz PCM16 (web calls). */
  audioFormat: "g711_ulaw" | "pcm";
  /** Caller audio per `input_audio_buffer.append` (a multiple of 20 ms). */
  appendMs: number;
  transcribeModel: string;
  language: string | null;
  /** The model's own end of turn: energy (`server_vad`) or a turn model (`semantic_vad`). */
  turnDetection:
    | { type: "server_vad"; silenceMs: number }
    | { type: "semantic_vad"; eagerness: "low" | "medium" | "high" };
  /** Whether the model answers by itself when the caller stops (off until a waiting assistant greeted). */
  createResponse: boolean;
  /**
   * The conversation before this session (a caller back from a transfer nobody answered), as the
   * pipeline's reply history windows it: created as items before the model is asked for anything.
   */
  history?: { role: "user" | "assistant"; content: string }[];
}

/**
 * A server event, with the beta dialect's names mapped to the GA ones (`response.audio.delta` is
 * `response.output_audio.delta`, and so on), so that the session reads one vocabulary.
 */
export interface RealtimeEvent {
  type: string;
  [field: string]: unknown;
}

const BETA_EVENT_NAMES: Record<string, string> = {
  "response.audio.delta": "response.output_audio.delta",
  "response.audio.done": "response.output_audio.done",
  "response.audio_transcript.delta": "response.output_audio_transcript.delta",
  "response.audio_transcript.done": "response.output_audio_transcript.done",
  "response.text.delta": "response.output_text.delta",
  "response.text.done": "response.output_text.done",
};

const AUDIO_FORMATS = {
  g711_ulaw: { ga: { type: "audio/pcmu" }, beta: "g711_ulaw" },
  pcm: { ga: { type: "audio/pcm", rate: 24_000 }, beta: "pcm16" },
} as const;

/**
 * A speech-to-speech model a multimodal or dualplex call talks to, one connection per call; chosen
 * at the composition root. A failure to connect rejects (the call then ends with an apology).
 */
export interface RealtimeModel {
  connect(callId: number): Promise<RealtimeConnection>;
}

/**
 * Opens OpenAI Realtime sessions over a WebSocket (`{base}/realtime?model=…`, bearer key), for
 * OpenAI itself or any server speaking the protocol (GA or beta dialect).
 */
export class RealtimeClient implements RealtimeModel {
  constructor(
    private readonly config: VoiceConfig["realtime"],
    private readonly timeoutSeconds: number,
    private readonly logger: Logger,
  ) {}

  async connect(callId: number): Promise<RealtimeConnection> {
    const { baseUrl, apiKey, model, dialect } = this.config;
    const url = `${baseUrl}/realtime?model=${encodeURIComponent(model)}`;
    const socket = new WebSocket(url, {
      headers: {
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...(dialect === "beta" ? { "openai-beta": "realtime=v1" } : {}),
      },
      maxPayload: MAX_REALTIME_EVENT_BYTES,
      // ws offers permessage-deflate by default: a server that accepts it would have every 20–60 ms
      // append and delta (base64 audio, which barely compresses) deflated and inflated, per call.
      perMessageDeflate: false,
      handshakeTimeout: this.timeoutSeconds * 1000,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("unexpected-response", (_request, response) => {
        socket.terminate();
        reject(new UpstreamFailedError(`the realtime model answered HTTP ${response.statusCode}.`));
      });
      socket.once("error", () => reject(new UpstreamFailedError("the realtime model could not be reached.")));
    });
    return new RealtimeConnection(socket, dialect, callId, this.logger);
  }
}

/** One call's realtime session: client events out, server events in. */
export class RealtimeConnection {
  private readonly listeners: ((event: RealtimeEvent) => void)[] = [];
  private readonly closeListeners: (() => void)[] = [];
  private closing = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly dialect: "ga" | "beta",
    callId: number,
    private readonly logger: Logger,
  ) {
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      let event: RealtimeEvent;
      try {
        event = JSON.parse(data.toString()) as RealtimeEvent;
      } catch {
        this.logger.warn("realtime model sent a malformed event", { callId });
        return;
      }
      if (typeof event?.type !== "string") return;
      event.type = BETA_EVENT_NAMES[event.type] ?? event.type;
      for (const listener of this.listeners) listener(event);
    });
    socket.on("error", (error) => this.logger.warn("realtime model connection failed", { callId, error }));
    socket.on("close", () => {
      for (const listener of this.closeListeners) listener();
    });
  }

  onEvent(listener: (event: RealtimeEvent) => void) {
    this.listeners.push(listener);
  }

  /** The model's side closed (not by `close`). */
  onClose(listener: () => void) {
    this.closeListeners.push(() => {
      if (!this.closing) listener();
    });
  }

  private send(event: Record<string, unknown>) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(event));
  }

  configure(options: RealtimeSessionOptions) {
    const detection =
      options.turnDetection.type === "server_vad"
        ? { type: "server_vad", silence_duration_ms: options.turnDetection.silenceMs, prefix_padding_ms: 300 }
        : { type: "semantic_vad", eagerness: options.turnDetection.eagerness };
    // The gateway decides barge-in (min_interrupt_words, allow_interruptions), not the model.
    const turnDetection = {
      ...detection,
      create_response: options.createResponse,
      interrupt_response: false,
    };
    const transcription = {
      model: options.transcribeModel,
      ...(options.language ? { language: options.language } : {}),
    };
    const format = AUDIO_FORMATS[options.audioFormat];
    // The API speaks at 0.25 to 1.5 times its pace; speech_speed goes to 2.
    const speed = Math.min(1.5, Math.max(0.25, options.speed));
    if (this.dialect === "ga") {
      this.send({
        type: "session.update",
        session: {
          type: "realtime",
          instructions: options.instructions,
          output_modalities: [options.output],
          audio: {
            input: { format: format.ga, transcription, turn_detection: turnDetection },
            output: { format: format.ga, voice: options.voice, speed },
          },
          tools: options.tools,
          tool_choice: "auto",
        },
      });
      return;
    }
    this.send({
      type: "session.update",
      session: {
        modalities: options.output === "audio" ? ["audio", "text"] : ["text"],
        instructions: options.instructions,
        voice: options.voice,
        speed,
        // The beta API takes 0.6 to 1.2.
        temperature: Math.min(1.2, Math.max(0.6, options.temperature)),
        input_audio_format: format.beta,
        output_audio_format: format.beta,
        input_audio_transcription: transcription,
        turn_detection: turnDetection,
        tools: options.tools,
        tool_choice: "auto",
      },
    });
  }

  /**
   * Another assistant's instructions and functions from the next response on (a hand-off). The
   * voice stays: the API keeps a session's voice once it has produced audio.
   */
  instruct(instructions: string, tools: RealtimeFunction[]) {
    this.send({
      type: "session.update",
      session: this.dialect === "ga" ? { type: "realtime", instructions, tools } : { instructions, tools },
    });
  }

  /** Turns the model's own answers on (after a waiting assistant's greeting). */
  answerTurns(detection: RealtimeSessionOptions["turnDetection"]) {
    const type = detection.type;
    const turnDetection = {
      ...(type === "server_vad"
        ? { type, silence_duration_ms: detection.silenceMs, prefix_padding_ms: 300 }
        : { type, eagerness: detection.eagerness }),
      create_response: true,
      interrupt_response: false,
    };
    this.send({
      type: "session.update",
      session:
        this.dialect === "ga"
          ? { type: "realtime", audio: { input: { turn_detection: turnDetection } } }
          : { turn_detection: turnDetection },
    });
  }

  /**
   * Appends caller audio. The event is built as a string (base64 needs no JSON escaping): at 100
   * calls, an object and its serialisation per append were a visible share of the garbage collected.
   */
  appendAudio(bytes: Uint8Array) {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.socket.send(`{"type":"input_audio_buffer.append","audio":"${view.toString("base64")}"}`);
  }

  /** Asks for an answer; `instructions` replace the session's for this one response. */
  respond(instructions?: string) {
    this.send({ type: "response.create", ...(instructions ? { response: { instructions } } : {}) });
  }

  cancel() {
    this.send({ type: "response.cancel" });
  }

  /** The caller heard `audioEndMs` of the item's audio: the model forgets the rest. */
  truncate(itemId: string, audioEndMs: number) {
    this.send({
      type: "conversation.item.truncate",
      item_id: itemId,
      content_index: 0,
      audio_end_ms: Math.max(0, Math.round(audioEndMs)),
    });
  }

  functionOutput(callId: string, output: string) {
    this.send({
      type: "conversation.item.create",
      item: { type: "function_call_output", call_id: callId, output },
    });
  }

  /** Something the assistant said outside the model (dualplex's spoken phrases) joins the conversation. */
  assistantMessage(text: string) {
    this.send({
      type: "conversation.item.create",
      item: {
        type: "message",
        role: "assistant",
        content: [{ type: this.dialect === "ga" ? "output_text" : "text", text }],
      },
    });
  }

  /** A message from the caller's side that is not speech (a key press). */
  userMessage(text: string) {
    this.send({
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    });
  }

  close() {
    this.closing = true;
    this.socket.close();
  }
}
