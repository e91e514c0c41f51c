import { storableText } from "../../storable-text.mjs";
import { decodeAudio, type MediaFormat, type MediaStream, pcmBytes, resample } from "../media/index.ts";
import { type FunctionCallRecord, type RealtimeFunction, refused } from "../message-pipeline/index.ts";
import { concatBytes } from "./playback.ts";
import type { RealtimeConnection, RealtimeEvent, RealtimeSessionOptions } from "./realtime-client.ts";
import {
  type CallFunctions,
  type Handover,
  noTimings,
  type SessionPorts,
  type SessionSettings,
  type TurnTimings,
} from "./session-ports.ts";
import { heardSentences, type SentenceQueue, splitSentences, type Utterance } from "./utterance.ts";
import { MediaSession } from "./voice-session.ts";

export interface RealtimePorts extends SessionPorts {
  /**
   * Runs a function the model called: its output for the model, whether it asked to hang up, the
   * hand-off it made (`handoff`), and its record, stored with the turn as the pipeline's are.
   */
  runFunction(name: string, args: string, functions: CallFunctions): Promise<RealtimeFunctionResult>;
}

export interface RealtimeFunctionResult {
  output: string;
  endCall: boolean;
  handover?: RealtimeHandover;
  record: FunctionCallRecord;
}

/** A hand-off on a realtime session: the new assistant's instructions and functions for the model too. */
export interface RealtimeHandover extends Handover {
  instructions: string;
  tools: RealtimeFunction[];
}

/** How long a fixed phrase asked of the model may take to start; past it the session goes on without it. */
const SCRIPTED_PHRASE_TIMEOUT_MS = 15_000;

/**
 * Model audio between two marks at most: a barge-in's truncation is this precise, and the carrier is
 * not sent a mark per (possibly tiny) delta.
 */
const MARK_EVERY_MS = 100;

/** The Realtime API's PCM: 16-bit mono little-endian at 24 kHz, the only rate it takes. */
const MODEL_PCM_RATE = 24_000;

/**
 * What a stream's audio is sent to the model as: a phone's mu-law passes through untouched
 * (G.711 both ways); a browser's 16 kHz PCM goes as PCM, resampled to the model's 24 kHz, rather
 * than squeezed through the phone's 8 kHz mu-law.
 */
export function modelAudioFormat(format: MediaFormat): RealtimeSessionOptions["audioFormat"] {
  return format.encoding === "pcmu" ? "g711_ulaw" : "pcm";
}

/** A fixed phrase asked of the model: told once the model has generated it, and once it was played. */
interface ScriptedPhrase {
  generated(): void;
  played(): void;
}

/** One model response on its way to the caller. */
interface Answer {
  utterance: Utterance;
  /** The assistant message's item (multimodal), truncated on barge-in. */
  itemId: string | null;
  /** Everything the model said (its audio transcript, or its text). */
  transcript: string;
  /** Dualplex: text not yet a whole sentence, and the sentences on their way through text-to-speech. */
  pending: string;
  sentences: SentenceQueue | null;
  /**
   * Multimodal: the part of a 20 ms frame the last delta left over, the model's PCM bytes not yet
   * resampled (a whole triple of samples at a time), and the audio sent at the last mark.
   */
  carry: Uint8Array;
  modelCarry: Uint8Array;
  markedMs: number;
  calls: Promise<RealtimeFunctionResult & { callId: string }>[];
  filled: boolean;
  /** Multimodal: a function other than end_call runs, so the model says a filler once this response is done. */
  wantsFiller: boolean;
  finished: boolean;
  /** Lets the next answer's speech start. */
  release: () => void;
  /** When the response is a fixed phrase asked of the model: who waits for it. */
  scripted: ScriptedPhrase | null;
}

/**
 * One live call through a realtime speech model (OpenAI Realtime protocol). A phone caller's mu-law
 * frames go to the model untouched (G.711 both ways), a browser's PCM as 24 kHz PCM (see
 * `modelAudioFormat`); the model's voice activity and end of turn
 * decide when it answers. In `multimodal` mode its audio comes back and is relayed frame by frame;
 * in `dualplex` mode it answers in text, spoken sentence by sentence by the assistant's
 * text-to-speech voice. Barge-in, silence, the greeting, marks and stored turns are the shared
 * session's; on barge-in the model's response is cancelled and its message truncated to the audio
 * the marks say was played.
 */
export class RealtimeSession extends MediaSession {
  private answer: Answer | null = null;
  /** Fixed phrases asked of the model, waiting for their response to start. */
  private readonly scripted: ScriptedPhrase[] = [];
  /** The caller's last speech (model's VAD), which the next response answers. */
  private speech: { startMs: number; endMs: number; endedAt: number } | null = null;
  /**
   * The caller's last speech waiting for its transcription, which the API runs beside the response and
   * may send after the response began (when `speech` is taken): the caller's turn keeps its own times.
   */
  private untranscribed: { startMs: number; endMs: number } | null = null;
  private speechStartMs = 0;
  /** When the caller's last speech was transcribed (the model's input transcription). */
  private transcribedAt = 0;
  /**
   * The caller's speech that an answer's functions were run for: the response the model writes from
   * their results answers it too, so its latency counts from that speech, as the pipeline's does.
   */
  private continued: Pick<TurnTimings, "speechEndedAt" | "transcriptAt"> | null = null;
  /** Dualplex: each answer's speech starts once the previous answer's was sent. */
  private voiceLine: Promise<void> = Promise.resolve();
  /** Caller audio not yet appended to the model (one buffer for the call, reused). */
  private readonly batch: Uint8Array;
  private batched = 0;

  constructor(
    media: MediaStream,
    settings: SessionSettings,
    private readonly realtime: RealtimePorts,
    private readonly model: RealtimeConnection,
    private readonly options: RealtimeSessionOptions,
  ) {
    // The model hears the caller through its appends; the turn's audio is read here only to count a
    // barge-in's words. Kept otherwise, every frame of a long turn outlived several young-generation
    // collections on 100 relayed calls (bench/voice: the engine's GC pauses behind its jitter tail).
    super(media, settings, realtime, settings.allowInterruptions && settings.minInterruptWords > 1);
    // 20 ms of the model's audio: 160 bytes of mu-law, or 960 of 24 kHz PCM.
    const modelFrame = options.audioFormat === "pcm" ? (MODEL_PCM_RATE / 50) * 2 : 160;
    this.batch = new Uint8Array(Math.max(1, Math.round(options.appendMs / 20)) * modelFrame);
  }

  override start(): void {
    this.model.onEvent((event) => this.onEvent(event));
    this.model.onClose(() => {
      if (this.closed || this.ending) return;
      this.ending = true;
      this.ports.logger.warn("realtime model closed the session", { callId: this.media.callId });
      this.ports
        .hangUp("The speech model ended the session.")
        .catch((error: unknown) =>
          this.ports.logger.warn("could not hang up", { callId: this.media.callId, error }),
        );
    });
    this.model.configure(this.options);
    // A new session knows nothing of the call: what was said before it (a transfer nobody answered)
    // goes in first, so that the greeting and every answer follow from it.
    for (const message of this.options.history ?? []) {
      if (message.role === "user") this.model.userMessage(message.content);
      else this.model.assistantMessage(message.content);
    }
    super.start();
  }

  protected onFrame(frame: Uint8Array) {
    this.listen(frame);
    this.appendToModel(this.options.audioFormat === "pcm" ? this.toModelPcm(frame) : frame);
    this.checkSilence();
  }

  private toModelPcm(frame: Uint8Array): Uint8Array {
    const { format } = this.media;
    return pcmBytes(resample(decodeAudio(format, frame), format.sampleRate, MODEL_PCM_RATE));
  }

  /**
   * Caller audio goes to the model in appends of `appendMs`, not per 20 ms frame: a socket write
   * and an event per frame each way is what limited how many calls one core relays (bench/voice).
   * The model hears the audio that much later; its VAD's decisions are unchanged.
   */
  private appendToModel(bytes: Uint8Array) {
    const { batch } = this;
    let offset = 0;
    while (offset < bytes.length) {
      const count = Math.min(bytes.length - offset, batch.length - this.batched);
      batch.set(bytes.subarray(offset, offset + count), this.batched);
      this.batched += count;
      offset += count;
      if (this.batched === batch.length) {
        this.model.appendAudio(batch);
        this.batched = 0;
      }
    }
  }

  protected onDigit(digit: string) {
    this.model.userMessage(`(The caller pressed ${digit} on the keypad.)`);
    this.model.respond();
  }

  protected override interrupted(utterance: Utterance) {
    const answer = this.answer;
    if (!answer || answer.utterance !== utterance) return;
    if (!answer.finished) this.model.cancel();
    if (answer.itemId && this.options.output === "audio")
      this.model.truncate(answer.itemId, utterance.playedMs);
  }

  protected override stopped() {
    this.model.close();
  }

  protected async say(text: string, inHistory: boolean) {
    if (this.options.output === "text") {
      const utterance = await this.speak(text);
      const heard = heardSentences(utterance);
      if (inHistory && heard) this.model.assistantMessage(heard);
      await this.assistantTurn(utterance, text, heard);
      return;
    }
    await this.askModelToSay(text).played;
  }

  /**
   * The model speaks with its own voice: it is asked for the words. A model that never starts must
   * not hold the call's later turns (the silence goodbye and hang-up) forever.
   */
  private askModelToSay(text: string): { generated: Promise<void>; played: Promise<void> } {
    let generated = () => {};
    let played = () => {};
    const phrase: ScriptedPhrase = {
      generated: () => generated(),
      played: () => {
        clearTimeout(timer);
        played();
      },
    };
    const result = {
      generated: new Promise<void>((resolve) => {
        generated = resolve;
      }),
      played: new Promise<void>((resolve) => {
        played = resolve;
      }),
    };
    const timer = setTimeout(() => {
      // Started in time: it resolves once played.
      const waiting = this.scripted.indexOf(phrase);
      if (waiting < 0) return;
      this.scripted.splice(waiting, 1);
      this.ports.logger.warn("realtime model did not speak a fixed phrase", { callId: this.media.callId });
      generated();
      played();
    }, SCRIPTED_PHRASE_TIMEOUT_MS);
    this.scripted.push(phrase);
    this.model.respond(`Say exactly this to the caller, word for word, and nothing else: "${text}"`);
    return result;
  }

  private onEvent(event: RealtimeEvent) {
    if (this.closed) return;
    switch (event.type) {
      case "input_audio_buffer.speech_started":
        this.heardCaller();
        this.speechStartMs = numberField(event, "audio_start_ms") ?? this.detector.now;
        this.considerBargeIn();
        return;
      case "input_audio_buffer.speech_stopped": {
        this.heardCaller();
        const endMs = numberField(event, "audio_end_ms") ?? this.detector.now;
        this.speech = {
          startMs: this.speechStartMs,
          endMs,
          endedAt: Date.now() - (this.detector.now - endMs),
        };
        this.untranscribed = { startMs: this.speechStartMs, endMs };
        return;
      }
      case "input_audio_buffer.committed":
        if (!this.greeted) {
          // wait_for_customer: the callee spoke first; the greeting is the answer, then the model answers.
          this.greet();
          this.model.answerTurns(this.options.turnDetection);
        }
        return;
      case "conversation.item.input_audio_transcription.completed":
        this.callerSaid(typeof event.transcript === "string" ? event.transcript.trim() : "");
        return;
      case "response.created":
        this.begin();
        return;
      case "response.output_item.added": {
        const item = event.item as { id?: unknown; type?: unknown } | undefined;
        if (this.answer && item?.type === "message" && typeof item.id === "string")
          this.answer.itemId ??= item.id;
        // A response that only calls a function has no other first token than its call.
        if (item?.type === "function_call") this.firstToken();
        return;
      }
      case "response.output_audio.delta":
        this.audioDelta(event);
        return;
      case "response.output_audio_transcript.delta":
        if (this.answer && typeof event.delta === "string") {
          // The transcript of the model's audio may run ahead of the audio itself.
          this.firstToken();
          this.answer.transcript += event.delta;
        }
        return;
      case "response.output_text.delta":
        if (typeof event.delta === "string") this.textDelta(event.delta);
        return;
      case "response.function_call_arguments.done":
        this.functionCall(event);
        return;
      case "response.done":
        if (this.answer && !this.answer.finished) this.finish(this.answer);
        return;
      case "error": {
        const error = event.error as { code?: unknown; message?: unknown } | undefined;
        // Cancelling a response that had just finished is a harmless race.
        if (error?.code !== "response_cancel_not_active")
          this.ports.logger.warn("realtime model error", { callId: this.media.callId, error });
        return;
      }
      default:
        return;
    }
  }

  private callerSaid(text: string) {
    const span = this.untranscribed ?? { startMs: this.speechStartMs, endMs: this.detector.now };
    this.untranscribed = null;
    if (!text) return;
    this.transcribedAt = Date.now();
    // The transcription runs beside the model: it may arrive after the answer started.
    const timings = this.answer?.utterance.timings;
    if (timings && timings.speechEndedAt !== null) timings.transcriptAt ??= this.transcribedAt;
    this.recordTurn({
      speaker: "customer",
      text,
      heardText: text,
      interrupted: false,
      startMs: span.startMs,
      endMs: span.endMs,
      timings: null,
    }).catch((error: unknown) =>
      this.ports.logger.warn("could not store the caller's turn", { callId: this.media.callId, error }),
    );
  }

  private begin() {
    const scripted = this.scripted.shift() ?? null;
    const speech = scripted ? null : this.speech;
    this.speech = null;
    const continued = scripted ? null : this.continued;
    // A fixed phrase leaves it for the response that follows; anything else answers now.
    if (!scripted) this.continued = null;
    const utterance = this.utterance({
      ...noTimings(),
      ...(speech
        ? {
            speechEndedAt: speech.endedAt,
            transcriptAt: this.transcribedAt >= speech.endedAt ? this.transcribedAt : null,
          }
        : continued),
    });
    this.busy += 1;
    const previous = this.voiceLine;
    let release = () => {};
    this.voiceLine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.answer = {
      utterance,
      itemId: null,
      transcript: "",
      pending: "",
      sentences:
        this.options.output === "text" ? this.sentenceQueue(utterance, this.abort.signal, previous) : null,
      carry: new Uint8Array(0),
      modelCarry: new Uint8Array(0),
      markedMs: 0,
      calls: [],
      filled: false,
      wantsFiller: false,
      finished: false,
      release,
      scripted,
    };
  }

  private audioDelta(event: RealtimeEvent) {
    const answer = this.answer;
    if (!answer || answer.utterance.cleared || typeof event.delta !== "string") return;
    if (typeof event.item_id === "string") answer.itemId ??= event.item_id;
    const { utterance } = answer;
    utterance.timings.firstTokenAt ??= Date.now();
    let bytes: Uint8Array = Buffer.from(event.delta, "base64");
    if (this.options.audioFormat === "pcm")
      bytes = this.speechIn(bytes, answer.modelCarry, MODEL_PCM_RATE, (rest) => {
        answer.modelCarry = rest;
      });
    answer.carry = this.sendFrames(utterance, concatBytes(answer.carry, bytes), false);
    if (utterance.sentMs - answer.markedMs >= MARK_EVERY_MS) this.mark(answer);
  }

  /** The model's first output for the answer under way: audio, its transcript, text or a function call. */
  private firstToken() {
    const utterance = this.answer?.utterance;
    if (utterance && !utterance.cleared) utterance.timings.firstTokenAt ??= Date.now();
  }

  private mark(answer: Answer) {
    answer.markedMs = answer.utterance.sentMs;
    this.markPlayback(answer.utterance);
  }

  private textDelta(delta: string) {
    const answer = this.answer;
    if (!answer?.sentences || answer.utterance.cleared) return;
    answer.utterance.timings.firstTokenAt ??= Date.now();
    answer.transcript += delta;
    answer.pending += delta;
    const split = splitSentences(answer.pending);
    answer.pending = split.rest;
    for (const sentence of split.sentences) answer.sentences.push(sentence);
  }

  private functionCall(event: RealtimeEvent) {
    const answer = this.answer;
    const callId = event.call_id;
    const name = event.name;
    if (!answer || typeof callId !== "string" || typeof name !== "string") return;
    const args = typeof event.arguments === "string" ? event.arguments : "{}";
    this.firstToken();
    // A turn that is only a function call is placed in the call where the model made it.
    answer.utterance.startMs ??= this.detector.now;
    const started = performance.now();
    const functions: CallFunctions = {
      sendDigits: (digits) => this.sendDigits(digits),
      onFunctionCall: () => {
        if (!answer.sentences) {
          answer.wantsFiller = true;
          return;
        }
        if (answer.filled) return;
        answer.filled = true;
        const filler = this.nextFiller();
        if (filler) answer.sentences.push(filler);
      },
    };
    answer.calls.push(
      this.realtime
        .runFunction(name, args, functions)
        .then((result) => ({ callId, ...result }))
        .catch((error: unknown) => {
          this.ports.logger.warn("live call function failed", { callId: this.media.callId, name, error });
          const message = "The function failed.";
          return {
            callId,
            output: JSON.stringify({ error: message }),
            endCall: false,
            record: {
              ...refused(storableText(name), message),
              duration_ms: Math.round(performance.now() - started),
            },
          };
        }),
    );
  }

  private finish(answer: Answer) {
    answer.finished = true;
    answer.scripted?.generated();
    this.complete(answer)
      .catch((error: unknown) => {
        if (!this.closed) this.ports.logger.warn("voice turn failed", { callId: this.media.callId, error });
      })
      .finally(() => {
        answer.release();
        this.busy -= 1;
        this.quietSinceMs = this.detector.now;
        answer.scripted?.played();
      });
  }

  private async complete(answer: Answer) {
    const { utterance } = answer;
    if (!utterance.cleared) {
      if (answer.sentences && answer.pending.trim()) answer.sentences.push(answer.pending.trim());
      this.sendFrames(utterance, answer.carry, true);
      if (utterance.sentMs > answer.markedMs) this.mark(answer);
    }
    // Multimodal: the model says the filler while the functions run; their results follow once it has
    // (a model generates one response at a time).
    const filler = answer.wantsFiller && !utterance.cleared ? this.nextFiller() : null;
    const fillerSaid = filler ? this.askModelToSay(filler).generated : Promise.resolve();
    const results = await Promise.all(answer.calls);
    await fillerSaid;
    const endCall = results.some((result) => result.endCall);
    // The new assistant's instructions reach the model before the function's result: a session has one
    // set of instructions, so the handover sentence is already the new assistant's.
    for (const { handover } of results) {
      if (!handover || this.closed) continue;
      this.model.instruct(handover.instructions, handover.tools);
      await this.adopt(handover);
    }
    // The model goes on at once (its next words queue behind these); the caller need not hear them first.
    if (results.length > 0 && !utterance.cleared && !endCall) {
      for (const result of results) this.model.functionOutput(result.callId, result.output);
      const { speechEndedAt, transcriptAt } = utterance.timings;
      this.continued = speechEndedAt === null ? null : { speechEndedAt, transcriptAt };
      this.model.respond();
    }
    await answer.sentences?.drained();
    answer.release();
    await this.finishUtterance(utterance);
    const heard = answer.sentences
      ? heardSentences(utterance)
      : heardShare(answer.transcript.trim(), utterance);
    // A dualplex filler is part of what the assistant said even when the model wrote nothing.
    await this.assistantTurn(
      utterance,
      answer.transcript.trim() || utterance.sentences.join(" "),
      heard,
      results.map((result) => result.record),
    );
    if (endCall && !utterance.cleared) {
      this.ending = true;
      await this.ports.hangUp("The assistant ended the call.");
    }
  }
}

/**
 * What the caller heard of a spoken transcript: all of it, or for an interrupted answer the whole
 * words within the share of its audio the marks say was played (speech runs at an even pace).
 */
export function heardShare(transcript: string, utterance: Utterance): string {
  if (!utterance.cleared) return transcript;
  if (utterance.sentMs <= 0) return "";
  const limit = (transcript.length * utterance.playedMs) / utterance.sentMs;
  let heard = "";
  for (const word of transcript.matchAll(/\S+/g)) {
    const end = word.index + word[0].length;
    if (end > limit) break;
    heard = transcript.slice(0, end);
  }
  return heard;
}

function numberField(event: RealtimeEvent, field: string): number | null {
  const value = event[field];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
