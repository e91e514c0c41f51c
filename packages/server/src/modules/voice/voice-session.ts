import type { Logger } from "../../logger.ts";
import type { MediaStream } from "../telephony/provider.ts";
import { muLawToPcm, pcmFromBytes, pcmToMuLaw, resample, wavFile } from "./codec.ts";
import { TTS_SAMPLE_RATE } from "./speech-client.ts";
import { endpointMs, interruptMs, TurnDetector } from "./turn-detector.ts";

/** 20 ms of 8 kHz mu-law: the frame Twilio sends and expects. */
const FRAME_BYTES = 160;
/** Speech-to-text gets 16 kHz: what most models (Whisper and its servers) are trained on. */
const STT_SAMPLE_RATE = 16_000;

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
  endpointSensitivity: number;
  /** Seconds of silence after which the call ends; 0 turns silence handling off. */
  maxSilenceDuration: number;
  /** Seconds of silence between re-engagement prompts. */
  reengagementInterval: number;
  language: string | null;
  /** The provider's voice name (voice catalogue's providerVoiceId). */
  voice: string;
  speechSpeed: number;
}

/** Per-stage times of one assistant turn, in epoch ms (null where the stage did not happen). */
export interface TurnTimings {
  speechEndedAt: number | null;
  transcriptAt: number | null;
  firstTokenAt: number | null;
  firstAudioAt: number | null;
  playedAt: number | null;
}

/** What the session needs from the rest of the server; the voice service implements it. */
export interface SessionPorts {
  logger: Logger;
  transcribe(wav: Buffer, signal: AbortSignal): Promise<string>;
  synthesize(text: string, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
  /** The assistant's answer to the conversation so far, streamed through `onDelta`. */
  reply(
    history: { role: "user" | "assistant"; content: string }[],
    onDelta: (text: string) => void,
    signal: AbortSignal,
  ): Promise<{ text: string; endCall: boolean }>;
  /** A finished turn: what the caller said, or what the assistant said and what of it was heard. */
  turn(turn: SessionTurn): Promise<void>;
  /** Hang up, ended by the assistant. */
  hangUp(reason: string): Promise<void>;
  /** The caller hung up (the stream stopped without the session asking). */
  callerLeft(): Promise<void>;
}

export interface SessionTurn {
  speaker: "assistant" | "customer";
  /** The caller's transcript, or everything the assistant generated for the turn. */
  text: string;
  /** What the caller heard: `text`, or for an interrupted assistant turn the sentences played. */
  heardText: string;
  interrupted: boolean;
  /** Media milliseconds from the start of the stream. */
  startMs: number;
  endMs: number;
  timings: TurnTimings | null;
}

interface Utterance {
  sentences: string[];
  /** Sentences whose marks came back before any clear: what the caller heard. */
  played: number;
  cleared: boolean;
  /** Media ms of the first frame sent. */
  startMs: number | null;
  timings: TurnTimings;
  done: Promise<void>;
  finish: () => void;
}

/**
 * One live call in pipeline mode: local end-of-turn on the caller's audio, speech-to-text of the
 * turn, the reply engine's answer streamed sentence by sentence through text-to-speech back as
 * mu-law frames with a mark after each sentence. The caller talking over the assistant (when
 * allowed) clears its audio and cuts its turn to what the marks say was played. Silence gets
 * re-engagement prompts, then a goodbye and a hang-up. The media clock (frames received) drives
 * every timing decision, so the same audio always gives the same conversation.
 */
export class PipelineSession {
  private readonly detector: TurnDetector;
  private readonly history: { role: "user" | "assistant"; content: string }[] = [];
  private speaking: Utterance | null = null;
  private abort = new AbortController();
  private marks = 0;
  private readonly pendingMarks = new Map<string, Utterance>();
  private quietSinceMs = 0;
  private prompts = 0;
  private ending = false;
  private closed = false;
  private greeted = false;
  /** Turns queued or running; silence is not counted meanwhile. */
  private busy = 0;
  /** Serialises the caller's turns: one answer at a time, in order. */
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly media: MediaStream,
    private readonly settings: SessionSettings,
    private readonly ports: SessionPorts,
  ) {
    this.detector = new TurnDetector(endpointMs(settings.endpointSensitivity));
    media.onAudio((frame) => this.onAudio(frame));
    media.onMark((name) => this.onMark(name));
    media.onDtmf((digit) =>
      this.enqueue(() => this.answer(`(The caller pressed ${digit} on the keypad.)`, null)),
    );
    media.onClose(() => this.onClose());
  }

  /** The assistant speaks first unless it waits for the caller. */
  start(): void {
    if (!this.settings.waitForCustomer) this.greet();
  }

  private greet() {
    if (this.greeted) return;
    this.greeted = true;
    const opening = this.settings.initialMessage.trim();
    if (opening) this.enqueue(() => this.say(opening, true));
  }

  private onAudio(muLaw: Uint8Array) {
    if (this.closed) return;
    const event = this.detector.push(muLawToPcm(muLaw));
    if (this.detector.speaking) this.quietSinceMs = this.detector.now;
    if (event?.type === "voice" && this.speaking && this.settings.allowInterruptions) {
      if (event.voicedMs >= interruptMs(this.settings.interruptSensitivity)) this.bargeIn();
    }
    if (event?.type === "end-of-turn") {
      const speechEndedAt = Date.now() - (this.detector.now - event.speechEndMs);
      const audio = event.audio;
      const span = { startMs: Math.max(0, this.detector.now - audio.length / 8), endMs: event.speechEndMs };
      this.quietSinceMs = this.detector.now;
      this.prompts = 0;
      this.enqueue(() => this.caller(audio, speechEndedAt, span));
      return;
    }
    this.checkSilence();
  }

  private checkSilence() {
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

  private enqueue(task: () => Promise<void>) {
    this.work = this.work
      .then(() => (this.closed ? undefined : task()))
      .catch((error: unknown) => {
        if (!this.abort.signal.aborted)
          this.ports.logger.warn("voice turn failed", { callId: this.media.callId, error });
      });
  }

  private async caller(audio: Int16Array, speechEndedAt: number, span: { startMs: number; endMs: number }) {
    const wav = wavFile(resample(audio, 8000, STT_SAMPLE_RATE), STT_SAMPLE_RATE);
    const text = await this.ports.transcribe(wav, this.abort.signal);
    if (!text) return;
    const transcriptAt = Date.now();
    await this.ports.turn({
      speaker: "customer",
      text,
      heardText: text,
      interrupted: false,
      ...span,
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
      speechEndedAt: stages?.speechEndedAt ?? null,
      transcriptAt: stages?.transcriptAt ?? null,
      firstTokenAt: null,
      firstAudioAt: null,
      playedAt: null,
    });
    let pending = "";
    let spoken = Promise.resolve();
    const signal = this.abort.signal;
    let queued = 0;
    const speakSentence = (sentence: string) => {
      queued += 1;
      spoken = spoken.then(() => this.speakSentence(utterance, sentence, signal));
    };
    let result = { text: "", endCall: false };
    try {
      result = await this.ports.reply(
        this.history,
        (delta) => {
          utterance.timings.firstTokenAt ??= Date.now();
          pending += delta;
          const { sentences, rest } = splitSentences(pending);
          pending = rest;
          for (const sentence of sentences) speakSentence(sentence);
        },
        signal,
      );
    } catch (error) {
      // A barge-in aborted the reply: what was already played is still the assistant's turn.
      if (!signal.aborted) throw error;
    }
    if (pending.trim() && !signal.aborted) speakSentence(pending.trim());
    if (queued === 0 && result.text && !signal.aborted) speakSentence(result.text);
    await spoken.catch((error: unknown) => {
      if (!signal.aborted) throw error;
    });
    await this.finishUtterance(utterance);
    this.history.push({ role: "assistant", content: heardText(utterance) });
    await this.assistantTurn(utterance, result.text || utterance.sentences.join(" "));
    if (result.endCall && !utterance.cleared) {
      this.ending = true;
      await this.ports.hangUp("The assistant ended the call.");
    }
  }

  /** Speaks a fixed text (greeting, prompts, goodbye) as its own assistant turn. */
  private async say(text: string, inHistory: boolean) {
    const utterance = this.utterance({
      speechEndedAt: null,
      transcriptAt: null,
      firstTokenAt: null,
      firstAudioAt: null,
      playedAt: null,
    });
    for (const sentence of splitSentences(`${text} `).sentences) {
      await this.speakSentence(utterance, sentence, this.abort.signal);
    }
    await this.finishUtterance(utterance);
    if (inHistory) this.history.push({ role: "assistant", content: heardText(utterance) });
    await this.assistantTurn(utterance, text);
  }

  private assistantTurn(utterance: Utterance, generated: string) {
    if (!generated) return Promise.resolve();
    return this.ports.turn({
      speaker: "assistant",
      text: generated,
      heardText: heardText(utterance),
      interrupted: utterance.cleared,
      startMs: utterance.startMs ?? this.detector.now,
      endMs: this.detector.now,
      timings: utterance.timings,
    });
  }

  private utterance(timings: TurnTimings): Utterance {
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const utterance: Utterance = {
      sentences: [],
      played: 0,
      cleared: false,
      startMs: null,
      timings,
      done,
      finish,
    };
    this.speaking = utterance;
    return utterance;
  }

  private async speakSentence(utterance: Utterance, sentence: string, signal: AbortSignal) {
    if (utterance.cleared || signal.aborted || this.closed) return;
    utterance.sentences.push(sentence);
    const audio = await this.ports.synthesize(sentence, signal);
    let carry: Uint8Array = new Uint8Array(0);
    let out: Uint8Array = new Uint8Array(0);
    for await (const chunk of audio) {
      if (utterance.cleared || this.closed) break;
      const bytes = concatBytes(carry, chunk);
      // Whole triples of 16-bit samples only, so that the 3:1 decimation never straddles chunks.
      const usable = bytes.length - (bytes.length % 6);
      carry = bytes.slice(usable);
      const samples = pcmFromBytes(bytes.subarray(0, usable));
      out = concatBytes(out, pcmToMuLaw(resample(samples, TTS_SAMPLE_RATE, 8000)));
      out = this.sendFrames(utterance, out, false);
    }
    if (utterance.cleared || this.closed) return;
    this.sendFrames(utterance, out, true);
    const name = `s${++this.marks}`;
    this.pendingMarks.set(name, utterance);
    this.media.sendMark(name);
  }

  /** Sends whole 20 ms frames (and the remainder when `flush`); returns what is left. */
  private sendFrames(utterance: Utterance, bytes: Uint8Array, flush: boolean): Uint8Array {
    let offset = 0;
    while (bytes.length - offset >= FRAME_BYTES || (flush && offset < bytes.length)) {
      utterance.timings.firstAudioAt ??= Date.now();
      utterance.startMs ??= this.detector.now;
      this.media.sendAudio(bytes.subarray(offset, Math.min(bytes.length, offset + FRAME_BYTES)));
      offset += FRAME_BYTES;
    }
    return bytes.slice(Math.min(offset, bytes.length));
  }

  /** Resolves once every sentence of the utterance was played (or cleared). */
  private async finishUtterance(utterance: Utterance) {
    if (![...this.pendingMarks.values()].includes(utterance)) utterance.finish();
    await utterance.done;
    if (this.speaking === utterance) {
      this.speaking = null;
      this.quietSinceMs = this.detector.now;
    }
  }

  private onMark(name: string) {
    const utterance = this.pendingMarks.get(name);
    if (!utterance) return;
    this.pendingMarks.delete(name);
    if (!utterance.cleared) {
      utterance.played += 1;
      utterance.timings.playedAt = Date.now();
    }
    if (![...this.pendingMarks.values()].includes(utterance)) utterance.finish();
  }

  /** The caller talks over the assistant: its queued audio is dropped and its turn cut to what was played. */
  private bargeIn() {
    const utterance = this.speaking;
    if (!utterance || utterance.cleared) return;
    utterance.cleared = true;
    this.media.clearAudio();
    // Work in flight (the model, speech) is for a turn the caller no longer waits for.
    this.abort.abort();
    this.abort = new AbortController();
    this.ports.logger.info("barge-in", { callId: this.media.callId, played: utterance.played });
    // Marks still pending are the cleared ones: the carrier returns them, but they were not heard.
    for (const [name, owner] of this.pendingMarks) if (owner === utterance) this.pendingMarks.delete(name);
    utterance.finish();
  }

  private onClose() {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    for (const utterance of this.pendingMarks.values()) utterance.finish();
    this.speaking?.finish();
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

function heardText(utterance: Utterance): string {
  return utterance.sentences
    .slice(0, utterance.cleared ? utterance.played : utterance.sentences.length)
    .join(" ");
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
