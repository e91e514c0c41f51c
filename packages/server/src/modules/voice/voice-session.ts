import type { Logger } from "../../logger.ts";
import {
  dtmfTones,
  encodeAudio,
  frameBytes,
  type MediaStream,
  muLawToPcm,
  pcmBytes,
  pcmFromBytes,
  wavFile,
} from "../media/index.ts";
import type { FunctionCallRecord } from "../message-pipeline/index.ts";
import { DEFAULT_ENDPOINT, endOfTurnMs, type TurnDetectorFactory } from "./detectors.ts";
import { looksUnfinished, semanticWaits } from "./semantic-turn.ts";
import type { SpeechFormat, SpeechStream, TranscriptionEvents, TranscriptionStream } from "./speech.ts";
import { interruptMs, type TurnDetector, type TurnEvent } from "./turn-detector.ts";

export const VOICE_PHRASES = {
  reengage: "Are you still there?",
  silenceGoodbye: "I haven't heard from you, so I'll end the call now. Goodbye.",
} as const;

/** The assistant settings a live call uses. */
export interface SessionSettings {
  initialMessage: string;
  waitForCustomer: boolean;
  allowInterruptions: boolean;
  interruptSensitivity: number;
  /** Words the caller must say over the assistant before it stops (1: any sustained voice). */
  minInterruptWords: number;
  endpointSensitivity: number;
  /** Pipeline mode's `endpoint_type: semantic`: the end of turn reads the transcript (semantic-turn.ts). */
  semanticEndOfTurn: boolean;
  /** The stream's turn detector, from `endpoint_type` (the detector registry); the energy one's when absent. */
  turnDetector?: TurnDetectorFactory;
  /** Seconds of silence after which the call ends; 0 turns silence handling off. */
  maxSilenceDuration: number;
  /** Seconds of silence between re-engagement prompts. */
  reengagementInterval: number;
  language: string | null;
  /** The provider's voice name (voice catalogue's providerVoiceId). */
  voice: string;
  speechSpeed: number;
  /** Phrases spoken while a function runs (`fillers` on); empty when off. */
  fillers: string[];
}

/** Per-stage times of one assistant turn, in epoch ms (null where the stage did not happen). */
export interface TurnTimings {
  speechEndedAt: number | null;
  transcriptAt: number | null;
  firstTokenAt: number | null;
  firstAudioAt: number | null;
  playedAt: number | null;
}

/** What a live call's functions can do to the call while the model runs them. */
export interface CallFunctions {
  /** Plays keypad digits to the other side (in-band DTMF). */
  sendDigits(digits: string): Promise<void>;
  /** A function is about to run: a filler covers the wait. */
  onFunctionCall(name: string): void;
}

/** What every session needs from the rest of the server; the voice service implements it. */
export interface SessionPorts {
  logger: Logger;
  transcribe(wav: Buffer, signal: AbortSignal): Promise<string>;
  /** One sentence's speech: 16-bit mono PCM chunks at `sampleRate` (the synthesizer's own). */
  synthesize(
    text: string,
    signal: AbortSignal,
  ): Promise<{ sampleRate: number; audio: AsyncIterable<Uint8Array> }>;
  /** A finished turn: what the caller said, or what the assistant said and what of it was heard. */
  turn(turn: SessionTurn): Promise<void>;
  /** Hang up, ended by the assistant. */
  hangUp(reason: string): Promise<void>;
  /** The caller hung up (the stream stopped without the session asking). */
  callerLeft(): Promise<void>;
}

export interface PipelinePorts extends SessionPorts {
  /** The assistant's answer to the conversation so far, streamed through `onDelta`. */
  reply(
    history: { role: "user" | "assistant"; content: string }[],
    onDelta: (text: string) => void,
    signal: AbortSignal,
    functions: CallFunctions,
  ): Promise<PipelineReply>;
  /**
   * Speech-to-text as the caller speaks (the deployment's streaming provider); without it, or once
   * it failed, each turn is transcribed whole by `transcribe`.
   */
  openTranscription?(events: TranscriptionEvents): TranscriptionStream;
  /**
   * One answer's speech with its text streamed in as the model writes it (a context on the call's
   * streaming synthesizer socket), chunks in `format`; absent when the call speaks sentence by
   * sentence through `synthesize`.
   */
  openSpeech?(signal: AbortSignal): Promise<{ format: SpeechFormat; stream: SpeechStream }>;
}

/** One answer of the pipeline: its text, and what the call does after it is spoken. */
export interface PipelineReply {
  text: string;
  endCall: boolean;
  /** The answer handed the call to another assistant (`handoff`): what answers from the next turn. */
  handover?: () => Promise<Handover | null>;
  /** The functions the model called for this answer, stored with the turn for review. */
  functionCalls?: FunctionCallRecord[];
}

/**
 * What a hand-off changes in a running session (docs/transfers.md#live-call-hand-offs): the same
 * session and media stream go on with the new assistant's settings and voice.
 */
export interface Handover {
  /**
   * The new assistant's settings. End of turn (`turnDetector`, `semanticEndOfTurn`,
   * `endpointSensitivity`) stays the call's: its detector holds the caller's audio so far, and a
   * streaming transcription was opened with its endpointing.
   */
  settings: SessionSettings;
  /** The new assistant's streaming voice; absent: it speaks sentence by sentence. */
  openSpeech?: PipelinePorts["openSpeech"];
  /** The transcript's line marking the hand-over. */
  marker: string;
}

export interface SessionTurn {
  /** `system`: a marker in the transcript (a hand-over), nobody's words. */
  speaker: "assistant" | "customer" | "system";
  /** The caller's transcript, or everything the assistant generated for the turn. */
  text: string;
  /** What the caller heard: `text`, or for an interrupted assistant turn the part played. */
  heardText: string;
  interrupted: boolean;
  /** Media milliseconds from the start of the stream. */
  startMs: number;
  endMs: number;
  timings: TurnTimings | null;
  /** Assistant turns: the functions the model called to write it. */
  functionCalls?: FunctionCallRecord[];
}

/** One assistant turn on its way to the caller's ear. */
export interface Utterance {
  /** Sentences spoken through text-to-speech (pipeline and dualplex). */
  sentences: string[];
  /** Marks that came back before any clear: sentences (or audio chunks, or words) the caller heard. */
  played: number;
  /**
   * A text stream marks each word as played (its marks come back as words are "heard"), audio each
   * sentence; streamed speech marks each chunk with the text it voices (`voiced`).
   */
  markPer: "sentence" | "word" | "text";
  /** Streamed speech: the text of the chunks whose marks came back. */
  voiced: string;
  /** Media ms of audio sent, and of audio the marks say was played. */
  sentMs: number;
  playedMs: number;
  cleared: boolean;
  /**
   * All of its audio was sent: it is over once its marks are back. Until then, marks back are not its
   * end (a filler played whole while a function runs, before the answer's sentences).
   */
  sealed: boolean;
  /** Media ms of the first frame sent. */
  startMs: number | null;
  timings: TurnTimings;
  done: Promise<void>;
  finish: () => void;
}

/** Sentences on their way through text-to-speech, one after the other. */
export interface SentenceQueue {
  readonly queued: number;
  push(sentence: string): void;
  /** Resolves once every queued sentence was sent; a barge-in's abort is not a failure. */
  drained(): Promise<void>;
}

export const noTimings = (): TurnTimings => ({
  speechEndedAt: null,
  transcriptAt: null,
  firstTokenAt: null,
  firstAudioAt: null,
  playedAt: null,
});

/**
 * What every mode shares for one live call: the media clock (frames received) and local voice
 * activity, frames and marks out (the caller's ear), barge-in with `min_interrupt_words`, silence
 * prompts and the goodbye, the greeting, text-to-speech by sentence, fillers, DTMF out, and the
 * stored turns. Subclasses decide what the caller's audio becomes and where answers come from.
 */
export abstract class MediaSession {
  protected readonly detector: TurnDetector;
  protected speaking: Utterance | null = null;
  protected abort = new AbortController();
  private marks = 0;
  private readonly pendingMarks = new Map<string, { utterance: Utterance; sentMs: number; text: string }>();
  protected quietSinceMs = 0;
  private prompts = 0;
  protected ending = false;
  protected closed = false;
  protected greeted = false;
  /** Answers queued, running or playing; silence is not counted meanwhile. */
  protected busy = 0;
  /** Serialises the assistant's turns: one at a time, in order. */
  private work: Promise<void> = Promise.resolve();
  /** Bumped when the conversation is abandoned (a voicemail's beep): turns queued before it are dropped. */
  private epoch = 0;
  /** A barge-in's words are being counted (`min_interrupt_words`). */
  private counting = false;
  private fillerIndex = 0;
  /** Turns are stored one after the other, in the order they happened. */
  private stored: Promise<void> = Promise.resolve();
  /** 20 ms of audio in the stream's format: the frame sent to the caller. */
  protected readonly frameBytes: number;

  /** `keepsCallerAudio`: whether this mode reads the caller's turns as audio (see `TurnDetector`). */
  constructor(
    protected readonly media: MediaStream,
    protected readonly settings: SessionSettings,
    protected readonly ports: SessionPorts,
    keepsCallerAudio = true,
  ) {
    this.detector = (settings.turnDetector ?? DEFAULT_ENDPOINT.turnDetector)({
      format: media.format,
      endOfTurnMs: endOfTurnMs(settings.endpointSensitivity, settings.semanticEndOfTurn),
      keepsAudio: keepsCallerAudio,
    });
    this.frameBytes = frameBytes(media.format);
  }

  /**
   * Listens to the stream (audio the carrier kept while the call loaded comes at once), then the
   * assistant speaks first unless it waits for the caller.
   */
  start(): void {
    const { media } = this;
    media.onAudio((frame) => {
      if (!this.closed) this.onFrame(frame);
    });
    media.onMark((name) => this.onMark(name));
    media.onDtmf((digit) => this.onDigit(digit));
    media.onClose(() => this.onClose());
    media.text?.onText((text, spokenMs) => {
      if (!this.closed) this.onText(text, spokenMs);
    });
    if (!this.settings.waitForCustomer) this.greet();
  }

  /**
   * A whole turn of the caller's as text (a text stream), once said: it took `spokenMs` of the media
   * clock. A mode without text turns ignores it.
   */
  protected onText(_text: string, _spokenMs: number): void {}

  /** One frame of the caller's audio, in the stream's format. */
  protected abstract onFrame(frame: Uint8Array): void;
  /** A key the caller pressed. */
  protected abstract onDigit(digit: string): void;
  /** Speaks a fixed text (greeting, prompts, goodbye) as its own assistant turn. */
  protected abstract say(text: string, inHistory: boolean): Promise<void>;
  /** The caller interrupted `utterance`; its audio is already cleared. */
  protected interrupted(_utterance: Utterance): void {}
  /** The stream ended. */
  protected stopped(): void {}

  protected greet() {
    if (this.greeted) return;
    this.greeted = true;
    const opening = this.settings.initialMessage.trim();
    if (opening) this.enqueue(() => this.say(opening, true));
  }

  /**
   * Local voice activity on a caller frame (decided at 8 kHz, the turn kept at the stream's rate):
   * the media clock, silence, and barge-in.
   */
  protected listen(frame: Uint8Array): TurnEvent | null {
    const event = this.detector.push(frame);
    if (this.detector.speaking) this.quietSinceMs = this.detector.now;
    if (event?.type === "voice" && event.voicedMs >= interruptMs(this.settings.interruptSensitivity))
      this.considerBargeIn();
    // A turn said over the assistant that ended before its words were counted is counted whole (a
    // text stream's caller's words are counted as they are said).
    if (event?.type === "end-of-turn" && this.settings.minInterruptWords > 1 && !this.media.text)
      this.considerBargeIn(event.audio);
    return event;
  }

  /**
   * The caller talks over the assistant: barge in once they said `min_interrupt_words`, counted on
   * a quick transcription of `audio` (the turn so far, or a whole turn that just ended).
   */
  protected considerBargeIn(audio?: Int16Array) {
    const utterance = this.speaking;
    if (!utterance || utterance.cleared || !this.settings.allowInterruptions) return;
    if (this.settings.minInterruptWords <= 1) return this.bargeIn();
    // A streaming transcription counts the words as they are said.
    const words = this.wordsSoFar();
    if (words !== null) {
      if (wordCount(words) >= this.settings.minInterruptWords) this.bargeIn();
      return;
    }
    // A text stream's caller speaks known words: no transcription to count them.
    if (this.media.text) {
      if (wordCount(this.media.text.callerWords()) >= this.settings.minInterruptWords) this.bargeIn();
      return;
    }
    // "Mhm" and "okay" do not stop the assistant. One count at a time while the caller talks.
    if (!audio && this.counting) return;
    this.counting = true;
    audio ??= this.detector.currentAudio();
    this.ports
      .transcribe(this.callerWav(audio), this.abort.signal)
      .then((text) => {
        if (wordCount(text) >= this.settings.minInterruptWords && this.speaking === utterance) this.bargeIn();
      })
      .catch((error: unknown) =>
        this.ports.logger.warn("could not count the barge-in's words", { callId: this.media.callId, error }),
      )
      .finally(() => {
        this.counting = false;
      });
  }

  /** The caller's words so far when a streaming transcription hears them; null: count on a transcription. */
  protected wordsSoFar(): string | null {
    return null;
  }

  /**
   * The caller's audio for speech-to-text at the stream's own rate: a phone's 8 kHz (upsampling
   * would add nothing but bytes), a browser's 16 kHz whole.
   */
  protected callerWav(audio: Int16Array): Buffer {
    return wavFile(audio, this.media.format.sampleRate);
  }

  /**
   * An answering machine's greeting ended (the beep): what was being said is cut, the message is
   * spoken, then `done` drops the line. Nothing else is said meanwhile.
   */
  leaveVoicemail(message: string, done: () => Promise<void>) {
    if (this.closed || this.ending) return;
    this.ending = true;
    this.ports.logger.info("leaving a voicemail message", { callId: this.media.callId });
    this.cutSpeech();
    this.epoch += 1;
    this.enqueue(async () => {
      await this.say(message, false);
      await done();
    });
  }

  protected checkSilence() {
    const { maxSilenceDuration, reengagementInterval } = this.settings;
    if (maxSilenceDuration <= 0 || this.busy > 0 || this.ending || this.detector.speaking) return;
    // Prompts count as silence: the caller said nothing through them.
    const quietMs = this.detector.now - this.quietSinceMs;
    const silentMs = this.prompts * reengagementInterval * 1000 + quietMs;
    if (silentMs >= maxSilenceDuration * 1000) {
      this.ending = true;
      this.enqueue(async () => {
        await this.say(VOICE_PHRASES.silenceGoodbye, false);
        await this.ports.hangUp("No answer from the caller (silence).");
      });
      return;
    }
    if (reengagementInterval > 0 && quietMs >= reengagementInterval * 1000) {
      this.prompts += 1;
      this.enqueue(() => this.say(VOICE_PHRASES.reengage, false));
    }
  }

  /** The caller said something: silence starts again. */
  protected heardCaller() {
    this.quietSinceMs = this.detector.now;
    this.prompts = 0;
  }

  protected enqueue(task: () => Promise<void>) {
    this.busy += 1;
    const epoch = this.epoch;
    this.work = this.work
      .then(() => (this.closed || epoch !== this.epoch ? undefined : task()))
      .catch((error: unknown) => {
        if (!this.abort.signal.aborted)
          this.ports.logger.warn("voice turn failed", { callId: this.media.callId, error });
      })
      .finally(() => {
        this.busy -= 1;
        this.quietSinceMs = this.detector.now;
      });
  }

  protected utterance(timings: TurnTimings): Utterance {
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const utterance: Utterance = {
      sentences: [],
      played: 0,
      markPer: "sentence",
      voiced: "",
      sentMs: 0,
      playedMs: 0,
      cleared: false,
      sealed: false,
      startMs: null,
      timings,
      done,
      finish,
    };
    this.speaking = utterance;
    return utterance;
  }

  /** Speaks `text` through text-to-speech as one utterance, resolved once played (or cleared). */
  protected async speak(text: string): Promise<Utterance> {
    const utterance = this.utterance(noTimings());
    for (const sentence of splitSentences(`${text} `).sentences) {
      await this.speakSentence(utterance, sentence, this.abort.signal);
    }
    await this.finishUtterance(utterance);
    return utterance;
  }

  /**
   * A hand-off's new assistant answers from here: its settings replace the call's (end of turn
   * excepted, see `Handover`), and the transcript marks the change.
   */
  protected async adopt(handover: Handover) {
    const { turnDetector, semanticEndOfTurn, endpointSensitivity } = this.settings;
    Object.assign(this.settings, handover.settings, { turnDetector, semanticEndOfTurn, endpointSensitivity });
    const now = this.detector.now;
    await this.recordTurn({
      speaker: "system",
      text: handover.marker,
      heardText: handover.marker,
      interrupted: false,
      startMs: now,
      endMs: now,
      timings: null,
    });
  }

  /** Stores a turn after those before it (a caller's transcript may be slower to store than an answer). */
  protected recordTurn(turn: SessionTurn): Promise<void> {
    const recorded = this.stored.then(() => this.ports.turn(turn));
    this.stored = recorded.catch(() => {});
    return recorded;
  }

  protected assistantTurn(
    utterance: Utterance,
    generated: string,
    heard: string,
    functionCalls: FunctionCallRecord[] = [],
  ) {
    if (!generated && functionCalls.length === 0) return Promise.resolve();
    return this.recordTurn({
      speaker: "assistant",
      text: generated,
      heardText: heard,
      interrupted: utterance.cleared,
      startMs: utterance.startMs ?? this.detector.now,
      endMs: this.detector.now,
      timings: utterance.timings,
      functionCalls,
    });
  }

  /** Sentences spoken one after the other through text-to-speech, for one utterance. */
  protected sentenceQueue(
    utterance: Utterance,
    signal: AbortSignal,
    after = Promise.resolve(),
  ): SentenceQueue {
    let spoken = after;
    let queued = 0;
    return {
      get queued() {
        return queued;
      },
      push: (sentence: string) => {
        queued += 1;
        spoken = spoken.then(() => this.speakSentence(utterance, sentence, signal));
      },
      drained: () =>
        spoken.catch((error: unknown) => {
          if (!signal.aborted) throw error;
        }),
    };
  }

  /** The next filler phrase, or null when fillers are off. */
  protected nextFiller(): string | null {
    const { fillers } = this.settings;
    if (fillers.length === 0) return null;
    return fillers[this.fillerIndex++ % fillers.length]!;
  }

  private async speakSentence(utterance: Utterance, sentence: string, signal: AbortSignal) {
    if (utterance.cleared || signal.aborted || this.closed) return;
    utterance.sentences.push(sentence);
    if (this.media.text) {
      // A text stream: the words are the "audio", each taking as long as saying it would, and
      // marked, so that a barge-in cuts the turn to the words played, as audio is cut by its marks.
      utterance.timings.firstAudioAt ??= Date.now();
      utterance.startMs ??= this.detector.now;
      utterance.markPer = "word";
      const ms = wordMs(this.settings.speechSpeed);
      for (const word of sentence.split(/\s+/).filter(Boolean)) {
        this.media.text.sendText(word, ms);
        utterance.sentMs += ms;
        this.markPlayback(utterance);
      }
      return;
    }
    const { sampleRate, audio } = await this.ports.synthesize(sentence, signal);
    let carry: Uint8Array = new Uint8Array(0);
    let out: Uint8Array = new Uint8Array(0);
    for await (const chunk of audio) {
      if (utterance.cleared || this.closed) break;
      out = concatBytes(
        out,
        this.speechIn(chunk, carry, sampleRate, (rest) => (carry = rest)),
      );
      out = this.sendFrames(utterance, out, false);
    }
    if (utterance.cleared || this.closed) return;
    this.sendFrames(utterance, out, true);
    this.markPlayback(utterance, `${sentence} `);
  }

  /**
   * 16-bit PCM at `rate` (a speech model's, in chunks of any length) as bytes in the stream's
   * format; `carry` is what the last chunk left over and `keep` takes what this one leaves: whole
   * triples of samples only, so that 24 kHz's 3:1 (to 8 kHz) or 3:2 (to 16 kHz) steps never
   * straddle chunks.
   */
  protected speechIn(
    chunk: Uint8Array,
    carry: Uint8Array,
    rate: number,
    keep: (rest: Uint8Array) => void,
  ): Uint8Array {
    const bytes = concatBytes(carry, chunk);
    const usable = bytes.length - (bytes.length % 6);
    keep(bytes.slice(usable));
    return encodeAudio(this.media.format, pcmFromBytes(bytes.subarray(0, usable)), rate);
  }

  /**
   * A streaming provider's audio as the stream's bytes: as it came when the provider speaks the
   * stream's own format (what the call asked it for: nothing is resampled or re-encoded), else
   * converted as `speechIn` does.
   */
  protected providerAudioIn(
    chunk: Uint8Array,
    carry: Uint8Array,
    format: SpeechFormat,
    keep: (rest: Uint8Array) => void,
  ): Uint8Array {
    const own = this.media.format;
    if (format.encoding === own.encoding && format.sampleRate === own.sampleRate) return chunk;
    const pcm = format.encoding === "pcmu" ? pcmBytes(muLawToPcm(chunk)) : chunk;
    return this.speechIn(pcm, carry, format.sampleRate, keep);
  }

  /**
   * Sends whole 20 ms frames of the stream's format (and the remainder when `flush`); returns
   * what is left.
   */
  protected sendFrames(utterance: Utterance, bytes: Uint8Array, flush: boolean): Uint8Array {
    const size = this.frameBytes;
    let offset = 0;
    while (bytes.length - offset >= size || (flush && offset < bytes.length)) {
      utterance.timings.firstAudioAt ??= Date.now();
      utterance.startMs ??= this.detector.now;
      const frame = bytes.subarray(offset, Math.min(bytes.length, offset + size));
      this.media.sendAudio(frame);
      utterance.sentMs += (frame.length * 20) / size;
      offset += size;
    }
    // A view, not a copy: most calls leave nothing over, and a copy per model delta was garbage.
    return bytes.subarray(Math.min(offset, bytes.length));
  }

  /** Asks the carrier to say when the audio sent so far for `utterance` has been played. */
  protected markPlayback(utterance: Utterance, text = "") {
    const name = `s${++this.marks}`;
    this.pendingMarks.set(name, { utterance, sentMs: utterance.sentMs, text });
    this.media.sendMark(name);
  }

  /** Keypad digits as tones on the caller's line; the stream stays up. */
  protected async sendDigits(digits: string) {
    const tones = encodeAudio(this.media.format, dtmfTones(digits), 8000);
    for (let offset = 0; offset < tones.length; offset += this.frameBytes)
      this.media.sendAudio(tones.subarray(offset, offset + this.frameBytes));
    this.ports.logger.info("dtmf sent", { callId: this.media.callId, digits: digits.length });
  }

  private waitingFor(utterance: Utterance): boolean {
    for (const entry of this.pendingMarks.values()) if (entry.utterance === utterance) return true;
    return false;
  }

  /** Resolves once every audio of the utterance was played (or cleared). */
  protected async finishUtterance(utterance: Utterance) {
    utterance.sealed = true;
    if (!this.waitingFor(utterance)) utterance.finish();
    await utterance.done;
    if (this.speaking === utterance) {
      this.speaking = null;
      this.quietSinceMs = this.detector.now;
    }
  }

  private onMark(name: string) {
    const entry = this.pendingMarks.get(name);
    if (!entry) return;
    const { utterance } = entry;
    this.pendingMarks.delete(name);
    if (!utterance.cleared) {
      utterance.played += 1;
      utterance.playedMs = entry.sentMs;
      utterance.voiced += entry.text;
      utterance.timings.playedAt = Date.now();
    }
    if (!utterance.sealed || this.waitingFor(utterance)) return;
    // Not speaking from this mark on: caller audio that came with it (one socket read) is not a barge-in.
    if (this.speaking === utterance) {
      this.speaking = null;
      this.quietSinceMs = this.detector.now;
    }
    utterance.finish();
  }

  /** The caller talks over the assistant: its queued audio is dropped and its turn cut to what was played. */
  private bargeIn() {
    const utterance = this.speaking;
    if (!utterance || utterance.cleared) return;
    this.ports.logger.info("barge-in", { callId: this.media.callId, playedMs: utterance.playedMs });
    this.cutSpeech();
  }

  /** Drops the assistant's queued audio and the work in flight; its turn is cut to what was played. */
  private cutSpeech() {
    // Work in flight (the model, speech) is for a turn nobody waits for any more.
    this.abort.abort();
    this.abort = new AbortController();
    const utterance = this.speaking;
    if (!utterance || utterance.cleared) return;
    utterance.cleared = true;
    this.media.clearAudio();
    // Marks still pending are the cleared ones (an earlier turn's too, when answers overlapped): the
    // carrier returns them, but they were not heard.
    for (const [name, { utterance: owner }] of this.pendingMarks) {
      this.pendingMarks.delete(name);
      owner.cleared = true;
      owner.finish();
    }
    this.interrupted(utterance);
    utterance.finish();
  }

  private onClose() {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    for (const { utterance } of this.pendingMarks.values()) utterance.finish();
    this.speaking?.finish();
    this.stopped();
    if (!this.ending) {
      this.ports.callerLeft().catch((error: unknown) =>
        this.ports.logger.warn("could not record the caller's hang-up", {
          callId: this.media.callId,
          error,
        }),
      );
    }
  }
}

/**
 * One live call in pipeline mode: local end-of-turn on the caller's audio, speech-to-text of the
 * turn, the reply engine's answer streamed sentence by sentence through text-to-speech back as
 * frames in the stream's format with a mark after each sentence. The media clock (frames received) drives every
 * timing decision, so the same audio always gives the same conversation.
 */
export class PipelineSession extends MediaSession {
  private readonly history: { role: "user" | "assistant"; content: string }[] = [];
  /** What the caller said before a pause in mid-thought (semantic end of turn), and when they began. */
  private carry: { text: string; startMs: number } | null = null;
  private lastSpeechStartMs = -1;
  /** A turn that reads as unfinished waits until the caller goes on (true) or the wait is over (false). */
  private resumeWait: { untilMs: number; resolve: (resumed: boolean) => void } | null = null;
  /** The streaming transcription, until it fails (then turns are transcribed whole). */
  private transcription: TranscriptionStream | null = null;
  /** The streaming transcription's words of the caller's utterance so far. */
  private interim = "";
  /**
   * The turn the local detector ended that the streaming transcription has not finished yet: what
   * the batch transcriber is given if the stream fails before it does.
   */
  private untranscribed: CallerTurn | null = null;
  /** The streaming transcription finished an utterance since the caller last started speaking. */
  private finishedSinceSpeech = false;
  /** The call's streaming synthesizer failed once: the rest of the call speaks sentence by sentence. */
  private streamFailed = false;
  /** The answering assistant's streaming voice (a hand-off brings its own). */
  private openSpeech: PipelinePorts["openSpeech"];

  constructor(
    media: MediaStream,
    settings: SessionSettings,
    private readonly pipeline: PipelinePorts,
  ) {
    super(media, settings, pipeline);
    this.openSpeech = pipeline.openSpeech;
  }

  override start(): void {
    this.transcription =
      this.pipeline.openTranscription?.({
        onInterim: (text) => this.onInterim(text),
        onUtterance: (text) => this.onUtterance(text),
        onError: (error) => this.transcriptionFailed(error),
      }) ?? null;
    super.start();
  }

  protected onFrame(frame: Uint8Array) {
    this.transcription?.push(frame);
    const event = this.listen(frame);
    if (event?.type === "speech-start") {
      this.lastSpeechStartMs = this.detector.now;
      this.finishedSinceSpeech = false;
      this.endResumeWait(true);
    } else if (this.resumeWait && this.detector.now >= this.resumeWait.untilMs) this.endResumeWait(false);
    // A text stream's caller turn arrives as text (`onText`); its voice only keeps the clock and barges in.
    if (event?.type === "end-of-turn" && !this.media.text) {
      const audio = event.audio;
      const audioMs = audio.length / (this.media.format.sampleRate / 1000);
      const turn: CallerTurn = {
        audio,
        speechEndedAt: Date.now() - (this.detector.now - event.speechEndMs),
        span: { startMs: Math.max(0, this.detector.now - audioMs), endMs: event.speechEndMs },
      };
      this.heardCaller();
      // Streaming: the provider's final transcript answers the turn (`onUtterance`); the audio is
      // kept only in case the stream fails first.
      if (this.transcription) this.untranscribed = this.finishedSinceSpeech ? null : turn;
      else this.enqueue(() => this.caller(turn));
      return;
    }
    this.checkSilence();
  }

  protected override wordsSoFar(): string | null {
    return this.transcription ? this.interim : null;
  }

  private onInterim(text: string) {
    if (this.closed) return;
    this.interim = text;
    // Words count toward `min_interrupt_words`; a single word's barge-in is the local detector's.
    if (this.speaking && this.settings.minInterruptWords > 1) this.considerBargeIn();
  }

  /** The provider ended the caller's utterance: the reply starts now, not at our own end of turn. */
  private onUtterance(text: string) {
    if (this.closed) return;
    this.interim = text;
    if (this.speaking && this.settings.minInterruptWords > 1) this.considerBargeIn();
    this.interim = "";
    const turn = this.untranscribed;
    this.untranscribed = null;
    this.finishedSinceSpeech = true;
    const now = this.detector.now;
    // Before our own detector ended the turn, the speech ended about now (the provider's endpointing).
    const speechEndedAt = turn?.speechEndedAt ?? Date.now();
    const span = turn?.span ?? { startMs: Math.max(0, this.lastSpeechStartMs), endMs: now };
    this.heardCaller();
    this.enqueue(() => this.callerSaid(text, speechEndedAt, span));
  }

  /** The streaming provider failed: the call goes on with batch speech-to-text, from the turn it missed. */
  private transcriptionFailed(error: Error) {
    if (!this.transcription) return;
    this.transcription.close();
    this.transcription = null;
    this.interim = "";
    this.ports.logger.warn("streaming speech-to-text failed; transcribing turns whole from now on", {
      callId: this.media.callId,
      error,
    });
    const turn = this.untranscribed;
    this.untranscribed = null;
    if (turn && !this.closed) this.enqueue(() => this.caller(turn));
  }

  protected onDigit(digit: string) {
    this.enqueue(() => this.answer(`(The caller pressed ${digit} on the keypad.)`, null));
  }

  protected override stopped() {
    this.endResumeWait(false);
    this.transcription?.close();
    this.transcription = null;
  }

  private endResumeWait(resumed: boolean) {
    const wait = this.resumeWait;
    this.resumeWait = null;
    wait?.resolve(resumed);
  }

  /**
   * Semantic end of turn: a transcript that reads as unfinished waits, up to the longer bound after
   * the caller's last word, for them to go on; true when they did (the text is then carried into
   * their next turn).
   */
  private callerGoesOn(text: string, speechEndMs: number): Promise<boolean> {
    if (!this.settings.semanticEndOfTurn || !looksUnfinished(text)) return Promise.resolve(false);
    if (this.lastSpeechStartMs > speechEndMs) return Promise.resolve(true);
    const untilMs = speechEndMs + semanticWaits(this.settings.endpointSensitivity).unfinished;
    if (this.closed || this.detector.now >= untilMs) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.resumeWait = { untilMs, resolve };
    });
  }

  protected override onText(text: string, spokenMs: number) {
    const now = this.detector.now;
    this.heardCaller();
    this.enqueue(() =>
      this.callerSaid(text, Date.now(), { startMs: Math.max(0, now - spokenMs), endMs: now }),
    );
  }

  private async caller({ audio, speechEndedAt, span }: CallerTurn) {
    await this.callerSaid(
      await this.ports.transcribe(this.callerWav(audio), this.abort.signal),
      speechEndedAt,
      span,
    );
  }

  /** The caller's turn, transcribed (or said as text): stored, then answered. */
  private async callerSaid(piece: string, speechEndedAt: number, span: { startMs: number; endMs: number }) {
    const text = [this.carry?.text, piece].filter(Boolean).join(" ");
    const startMs = this.carry?.startMs ?? span.startMs;
    this.carry = null;
    if (!text) return;
    if (await this.callerGoesOn(text, span.endMs)) {
      this.carry = { text, startMs };
      return;
    }
    const transcriptAt = Date.now();
    await this.recordTurn({
      speaker: "customer",
      text,
      heardText: text,
      interrupted: false,
      startMs,
      endMs: span.endMs,
      timings: null,
    });
    if (!this.greeted) {
      // wait_for_customer: the callee spoke first; the greeting is the answer.
      this.history.push({ role: "user", content: text });
      this.greet();
      return;
    }
    await this.answer(text, { speechEndedAt, transcriptAt });
  }

  private async answer(text: string, stages: { speechEndedAt: number; transcriptAt: number } | null) {
    this.history.push({ role: "user", content: text });
    const utterance = this.utterance({
      ...noTimings(),
      speechEndedAt: stages?.speechEndedAt ?? null,
      transcriptAt: stages?.transcriptAt ?? null,
    });
    const signal = this.abort.signal;
    const voice = await this.answerVoice(utterance, signal);
    let filled = false;
    let result: PipelineReply = { text: "", endCall: false };
    try {
      result = await this.pipeline.reply(
        this.history,
        (delta) => {
          utterance.timings.firstTokenAt ??= Date.now();
          voice.delta(delta);
        },
        signal,
        {
          sendDigits: (digits) => this.sendDigits(digits),
          onFunctionCall: () => {
            const filler = filled ? null : this.nextFiller();
            filled = true;
            if (filler) voice.sentence(filler);
          },
        },
      );
    } catch (error) {
      // A barge-in aborted the reply: what was already played is still the assistant's turn.
      if (!signal.aborted) throw error;
    }
    if (!voice.spoke && result.text && !signal.aborted) voice.sentence(result.text);
    await voice.finish();
    await this.finishUtterance(utterance);
    const heard = heardSentences(utterance);
    this.history.push({ role: "assistant", content: heard });
    await this.assistantTurn(
      utterance,
      result.text || utterance.sentences.join(" "),
      heard,
      result.functionCalls,
    );
    if (result.handover) await this.handOver(result.handover);
    if (result.endCall && !utterance.cleared) {
      this.ending = true;
      await this.ports.hangUp("The assistant ended the call.");
    }
    this.yieldTurn();
  }

  /**
   * Another assistant answers from the next turn, on this session and stream: its settings and voice
   * replace the call's (end of turn excepted, see `Handover`), and the transcript marks the change.
   */
  private async handOver(next: () => Promise<Handover | null>) {
    let handover: Handover | null;
    try {
      handover = await next();
    } catch (error) {
      this.ports.logger.warn("the hand-off could not be applied; the answering assistant keeps the call", {
        callId: this.media.callId,
        error,
      });
      return;
    }
    if (!handover || this.closed) return;
    this.openSpeech = handover.openSpeech;
    // A new voice may be another provider's: its socket gets its own chance.
    this.streamFailed = false;
    await this.adopt(handover);
  }

  /**
   * Where an answer's text goes as the model writes it: a streaming synthesizer's context when the
   * call has one (and it has not failed), else sentence by sentence through text-to-speech.
   */
  private async answerVoice(utterance: Utterance, signal: AbortSignal): Promise<AnswerVoice> {
    const batch = this.batchVoice(utterance, signal);
    if (!this.openSpeech || this.media.text || this.streamFailed) return batch;
    let opened: { format: SpeechFormat; stream: SpeechStream };
    try {
      opened = await this.openSpeech(signal);
    } catch (error) {
      if (signal.aborted) return batch;
      this.streamFailed = true;
      this.ports.logger.warn("streaming text-to-speech unavailable; speaking sentence by sentence", {
        callId: this.media.callId,
        error,
      });
      return batch;
    }
    return this.streamedVoice(utterance, signal, opened.stream, opened.format, batch);
  }

  private batchVoice(utterance: Utterance, signal: AbortSignal, after?: Promise<void>): AnswerVoice {
    const sentences = this.sentenceQueue(utterance, signal, after);
    let pending = "";
    return {
      get spoke() {
        return sentences.queued > 0 || pending.trim() !== "";
      },
      delta: (delta) => {
        pending += delta;
        const split = splitSentences(pending);
        pending = split.rest;
        for (const sentence of split.sentences) sentences.push(sentence);
      },
      sentence: (sentence) => sentences.push(sentence),
      finish: async () => {
        if (pending.trim() && !signal.aborted) sentences.push(pending.trim());
        pending = "";
        await sentences.drained();
      },
    };
  }

  /**
   * The answer's text pushed to the provider as the model writes it (a flush at each sentence's
   * end), its audio sent as it comes with a mark per chunk naming the text it voices. A provider
   * that fails mid-answer hands what it had not voiced yet, and the rest of the call, to the
   * sentence-by-sentence path.
   */
  private streamedVoice(
    utterance: Utterance,
    signal: AbortSignal,
    stream: SpeechStream,
    format: SpeechFormat,
    batch: AnswerVoice,
  ): AnswerVoice {
    utterance.markPer = "text";
    let pushed = "";
    let pending = "";
    let received = "";
    let fallback: AnswerVoice | null = null;
    const pump = (async () => {
      let carry: Uint8Array = new Uint8Array(0);
      let out: Uint8Array = new Uint8Array(0);
      try {
        for await (const chunk of stream.audio) {
          if (utterance.cleared || this.closed) break;
          received += chunk.text;
          out = concatBytes(
            out,
            this.providerAudioIn(chunk.audio, carry, format, (rest) => (carry = rest)),
          );
          out = this.sendFrames(utterance, out, false);
          this.markPlayback(utterance, chunk.text);
        }
      } catch (error) {
        // What the provider did say is played whole before the fallback's speech goes on from it.
        if (!utterance.cleared && !this.closed) this.sendFrames(utterance, out, true);
        throw error;
      }
      if (utterance.cleared || this.closed) return;
      this.sendFrames(utterance, out, true);
      this.markPlayback(utterance);
    })().catch((error: unknown) => {
      if (signal.aborted || utterance.cleared || this.closed) return;
      this.streamFailed = true;
      this.ports.logger.warn("streaming text-to-speech failed mid-answer; speaking sentence by sentence", {
        callId: this.media.callId,
        error,
      });
      // What the provider did not voice is said again from its first unvoiced word.
      const voicedWords = received.split(/\s+/).filter(Boolean).length;
      const rest = pushed.split(/\s+/).filter(Boolean).slice(voicedWords).join(" ");
      utterance.sentences = received.trim() ? [received.replace(/\s+/g, " ").trim()] : [];
      fallback = batch;
      if (rest) fallback.delta(`${rest}${/\s$/.test(pushed) ? " " : ""}`);
    });
    const push = (text: string) => {
      pushed += text;
      stream.pushText(text);
    };
    return {
      get spoke() {
        return pushed.trim() !== "";
      },
      delta: (delta) => {
        if (signal.aborted) return;
        if (fallback) return fallback.delta(delta);
        push(delta);
        pending += delta;
        const split = splitSentences(pending);
        pending = split.rest;
        if (split.sentences.length === 0) return;
        utterance.sentences.push(...split.sentences);
        stream.flush();
      },
      sentence: (sentence) => {
        if (signal.aborted) return;
        if (fallback) return fallback.sentence(sentence);
        // A whole sentence (a filler) between the model's: it ends what came before.
        push(`${pending ? " " : ""}${sentence} `);
        if (pending.trim()) utterance.sentences.push(pending.trim());
        pending = "";
        utterance.sentences.push(sentence);
        stream.flush();
      },
      finish: async () => {
        if (!fallback && !signal.aborted) {
          if (pending.trim()) utterance.sentences.push(pending.trim());
          pending = "";
          stream.end();
        }
        await pump;
        const rest = fallback as AnswerVoice | null;
        if (rest) await rest.finish();
      },
    };
  }

  protected async say(text: string, inHistory: boolean) {
    // Fixed phrases speak with the answers' voice (a streaming provider's when the call has one).
    const utterance = this.utterance(noTimings());
    const voice = await this.answerVoice(utterance, this.abort.signal);
    for (const sentence of splitSentences(`${text} `).sentences) voice.sentence(sentence);
    await voice.finish();
    await this.finishUtterance(utterance);
    const heard = heardSentences(utterance);
    if (inHistory) this.history.push({ role: "assistant", content: heard });
    await this.assistantTurn(utterance, text, heard);
    this.yieldTurn();
  }

  /** A text stream's other side hears no pause: it is told that the assistant's turn is over. */
  private yieldTurn() {
    if (!this.ending && !this.closed) this.media.text?.turnEnded();
  }
}

/** A caller turn the local detector ended: its audio, when the speech ended (epoch ms) and its media span. */
interface CallerTurn {
  audio: Int16Array;
  speechEndedAt: number;
  span: { startMs: number; endMs: number };
}

/** Where one answer's text goes as the model writes it, on its way to the caller's ear. */
interface AnswerVoice {
  /** Some text was given to it. */
  readonly spoke: boolean;
  /** More of the model's text. */
  delta(text: string): void;
  /** A whole sentence (a filler, or an answer that came without deltas). */
  sentence(text: string): void;
  /** No more text: resolves once everything was sent (or a barge-in dropped it). */
  finish(): Promise<void>;
}

/** Complete sentences at the start of `text`, and the unfinished rest. */
export function splitSentences(text: string): { sentences: string[]; rest: string } {
  const sentences: string[] = [];
  let consumed = 0;
  for (const match of text.matchAll(/[\s\S]*?[.!?]+(?=\s)/g)) {
    const sentence = match[0].trim();
    if (sentence) sentences.push(sentence);
    consumed = match.index + match[0].length;
  }
  return { sentences, rest: text.slice(consumed).trimStart() };
}

/**
 * What the caller heard of an utterance spoken by sentences: those whose marks came back (on a text
 * stream, the words whose marks came back).
 */
export function heardSentences(utterance: Utterance): string {
  if (!utterance.cleared) return utterance.sentences.join(" ");
  if (utterance.markPer === "text") return utterance.voiced.replace(/\s+/g, " ").trim();
  if (utterance.markPer === "word")
    return utterance.sentences.join(" ").split(/\s+/).slice(0, utterance.played).join(" ");
  return utterance.sentences.slice(0, utterance.played).join(" ");
}

/** Words a minute of speech at `speech_speed` 1 (a text-to-speech voice's usual pace). */
export const SPOKEN_WORDS_PER_MINUTE = 150;

/** Media ms one spoken word takes at `speed` (`speech_speed`), on a text stream. */
export function wordMs(speed: number): number {
  return 60_000 / (SPOKEN_WORDS_PER_MINUTE * speed);
}

/** Words in a transcript (a barge-in's), for `min_interrupt_words`. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
