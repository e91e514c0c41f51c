import { rms } from "../../src/modules/media/index.ts";
import { decodeTones } from "./fake-speech.ts";

const VOICE_LEVEL = 500;
const SPEECH_START_MS = 60;

/**
 * What the streaming speech fakes hear: an energy VAD over 20 ms frames of 16-bit PCM, an utterance
 * ended by `endpointingMs` of silence, and its words read back from tone speech (`fake-speech.ts`),
 * so that the fakes transcribe whatever the test caller said, as a real provider would.
 */
export class ToneListener {
  private inSpeech = false;
  private voicedRun = 0;
  private silentRun = 0;
  private utterance: Int16Array[] = [];
  /** Media ms heard. */
  audioMs = 0;

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
        this.on.speechStarted(this.audioMs - this.voicedRun);
      }
      return;
    }
    this.utterance.push(frame);
    this.silentRun = voiced ? 0 : this.silentRun + frameMs;
    if (this.silentRun < this.endpointingMs()) {
      if (this.on.interim && this.utterance.length % 10 === 0) this.on.interim(this.text());
      return;
    }
    this.inSpeech = false;
    this.voicedRun = 0;
    const text = this.text();
    this.utterance = [];
    this.on.ended(text, this.audioMs - this.silentRun);
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
