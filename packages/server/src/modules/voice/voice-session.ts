import { type MediaStream, wavFile } from "../media/index.ts";
import type { FunctionCallRecord } from "../message-pipeline/index.ts";
import { DEFAULT_ENDPOINT, endOfTurnMs } from "./detectors.ts";
import { Playback } from "./playback.ts";
import {
  type Handover,
  noTimings,
  type SessionPorts,
  type SessionSettings,
  type SessionTurn,
  type TurnTimings,
} from "./session-ports.ts";
import { interruptMs, type TurnDetector, type TurnEvent } from "./turn-detector.ts";
import { newUtterance, type SentenceQueue, splitSentences, type Utterance, wordCount } from "./utterance.ts";

export const VOICE_PHRASES = {
  reengage: "Are you still there?",
  silenceGoodbye: "I haven't heard from you, so I'll end the call now. Goodbye.",
} as const;

/**
 * What every mode shares for one live call: the media clock (frames received) and local voice
 * activity, the assistant's turns one at a time, barge-in with `min_interrupt_words`, silence
 * prompts and the goodbye, the greeting, fillers, and the stored turns; what goes to the caller's
 * ear (speech, frames, marks, DTMF) is `Playback`'s. Subclasses decide what the caller's audio
 * becomes and where answers come from.
 */
export abstract class MediaSession {
  protected readonly detector: TurnDetector;
  protected speaking: Utterance | null = null;
  protected abort = new AbortController();
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
  protected readonly playback: Playback;

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
    this.playback = new Playback(media, settings, ports, {
      now: () => this.detector.now,
      closed: () => this.closed,
    });
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
    const utterance = newUtterance(timings);
    this.speaking = utterance;
    return utterance;
  }

  /** Speaks `text` through text-to-speech as one utterance, resolved once played (or cleared). */
  protected async speak(text: string): Promise<Utterance> {
    const utterance = this.utterance(noTimings());
    for (const sentence of splitSentences(`${text} `).sentences) {
      await this.playback.speakSentence(utterance, sentence, this.abort.signal);
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
        spoken = spoken.then(() => this.playback.speakSentence(utterance, sentence, signal));
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

  // The realtime session sends the model's audio through these.
  protected speechIn(
    chunk: Uint8Array,
    carry: Uint8Array,
    rate: number,
    keep: (rest: Uint8Array) => void,
  ): Uint8Array {
    return this.playback.speechIn(chunk, carry, rate, keep);
  }

  protected sendFrames(utterance: Utterance, bytes: Uint8Array, flush: boolean): Uint8Array {
    return this.playback.sendFrames(utterance, bytes, flush);
  }

  protected markPlayback(utterance: Utterance, text = "") {
    this.playback.markPlayback(utterance, text);
  }

  /** Keypad digits as tones on the caller's line; the stream stays up. */
  protected async sendDigits(digits: string) {
    this.playback.sendTones(digits);
    this.ports.logger.info("dtmf sent", { callId: this.media.callId, digits: digits.length });
  }

  /** Resolves once every audio of the utterance was played (or cleared). */
  protected async finishUtterance(utterance: Utterance) {
    utterance.sealed = true;
    if (!this.playback.waitingFor(utterance)) utterance.finish();
    await utterance.done;
    if (this.speaking === utterance) {
      this.speaking = null;
      this.quietSinceMs = this.detector.now;
    }
  }

  private onMark(name: string) {
    const utterance = this.playback.played(name);
    if (!utterance) return;
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
    this.playback.clear();
    this.interrupted(utterance);
    utterance.finish();
  }

  private onClose() {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.playback.close();
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
