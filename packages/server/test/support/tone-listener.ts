import { rms } from "../../src/modules/media/index.ts";
import { decodeTones } from "./fake-speech.ts";

const VOICE_LEVEL = 500;
const SPEECH_START_MS = 60;

/** An utterance a listener heard, in media time. */
export interface HeardUtterance {
  startMs: number;
  /** Where its voice ended (before the endpointing silence). */
  endMs: number;
  /** 20 ms frames of it at voice level, in ms. */
  voicedMs: number;
  transcript: string;
  /** Date.now() when its end was reported. */
  endedAt: number;
}

/**
 * What the streaming speech fakes hear: an energy VAD over 20 ms frames of 16-bit PCM, an utterance
 * ended by `endpointingMs` of silence, and its words read back from tone speech (`fake-speech.ts`),
 * so that the fakes transcribe whatever the test caller said, as a real provider would.
 *
 * Real speech (espeak-ng) cannot be read back: a test scripts its transcripts (`script`, shared
 * by a fake's streams, one per utterance, in order). The listener still only answers what it
 * hears: an utterance starts on voice, its interims reveal the scripted words one at a time while it
 * lasts, and it ends after the endpointing silence, so the transcript arrives when the speech would
 * have been recognised, not before.
 */
export class ToneListener {
  private inSpeech = false;
  private voicedRun = 0;
  private silentRun = 0;
  private utterance: Int16Array[] = [];
  /** Media ms heard. */
  audioMs = 0;
  /** Every utterance ended, in order. */
  readonly heard: HeardUtterance[] = [];
  private startMs = 0;
  private interims = 0;
  /** Scripted transcripts, shared by a fake's listeners and taken one per utterance. */
  script: string[] = [];

  constructor(
    private readonly sampleRate: number,
    private readonly endpointingMs: () => number,
    private readonly on: {
      speechStarted(atMs: number): void;
      /** Every 200 ms of an utterance: what it says so far. */
      interim?(text: string): void;
      ended(text: string, atMs: number): void;
    },
  ) {}

  push(pcm: Int16Array) {
    const frameSamples = this.sampleRate / 50;
    for (let offset = 0; offset < pcm.length; offset += frameSamples)
      this.frame(pcm.subarray(offset, offset + frameSamples));
  }

  private frame(frame: Int16Array) {
    const frameMs = (frame.length * 1000) / this.sampleRate;
    this.audioMs += frameMs;
    const voiced = rms(frame) >= VOICE_LEVEL;
    if (!this.inSpeech) {
      this.voicedRun = voiced ? this.voicedRun + frameMs : 0;
      this.utterance.push(frame);
      // Keeps the onset: the first frames of an utterance come before the VAD is sure of it.
      if (this.utterance.length > 10) this.utterance.shift();
      if (this.voicedRun >= SPEECH_START_MS) {
        this.inSpeech = true;
        this.silentRun = 0;
        this.interims = 0;
        this.startMs = this.audioMs - this.voicedRun;
        this.on.speechStarted(this.startMs);
      }
      return;
    }
    this.utterance.push(frame);
    this.silentRun = voiced ? 0 : this.silentRun + frameMs;
    if (this.silentRun < this.endpointingMs()) {
      if (this.on.interim && this.utterance.length % 10 === 0) this.on.interim(this.interimText());
      return;
    }
    this.inSpeech = false;
    this.voicedRun = 0;
    const scripted = this.script.shift();
    const text = scripted ?? this.text();
    const voicedFrames = this.utterance.filter((part) => rms(part) >= VOICE_LEVEL).length;
    this.utterance = [];
    const endMs = this.audioMs - this.silentRun;
    this.heard.push({
      startMs: this.startMs,
      endMs,
      voicedMs: voicedFrames * frameMs,
      transcript: text,
      endedAt: Date.now(),
    });
    this.on.ended(text, endMs);
  }

  /** What the utterance says so far: a scripted one's words one more each time, all but the last. */
  private interimText(): string {
    const scripted = this.script[0];
    if (scripted === undefined) return this.text();
    const words = scripted.split(/\s+/);
    this.interims += 1;
    return words.slice(0, Math.min(this.interims, words.length - 1)).join(" ");
  }

  private text(): string {
    const audio = new Int16Array(this.utterance.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of this.utterance) {
      audio.set(part, at);
      at += part.length;
    }
    return decodeTones(audio, this.sampleRate).trim();
  }
}
