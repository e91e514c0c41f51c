import { pcmToMuLaw } from "./codec.ts";
import { MediaStreamBase } from "./media-stream-base.ts";
import { PHONE_FORMAT, type TextMedia } from "./stream.ts";

const FRAME_MS = 20;
/** 20 ms of 8 kHz mu-law silence (0xff is mu-law's zero). */
const SILENT_FRAME = new Uint8Array(160).fill(0xff);
/**
 * 20 ms of a 200 Hz tone at about -12 dBFS: the caller's voice as the engine's detector hears it
 * (a voice is above about -36 dBFS), so that talking over the assistant barges in as on audio.
 */
const VOICED_FRAME = pcmToMuLaw(
  Int16Array.from({ length: 160 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 200 * i) / 8000))),
);

/** The far end's pace: words a minute. */
export const CALLER_WORDS_PER_MINUTE = 150;
const CALLER_WORD_MS = 60_000 / CALLER_WORDS_PER_MINUTE;

type Queued = { text: string; ms: number } | { mark: string };

/**
 * A media stream of text turns (the simulated carrier): the voice engine runs the same session on
 * it as on a phone call's audio. Time on the line is what `elapse` says passed, as 20 ms frames, and
 * speech takes that time both ways: the assistant's words (`sendText`, each for as long as saying it
 * takes) are played one after the other, its marks coming back as the words before them are played,
 * and the far end hears each word once played (`onAssistant`); the caller's turn (`say`) is voice on
 * the line for as long as saying its words takes (so talking over the assistant barges in, as on
 * audio) and reaches the engine as text once said. `clearAudio` drops what was not played yet. Silence
 * prompts, turn offsets and every timing the engine keeps by its media clock behave as on audio.
 */
export class TextMediaStream extends MediaStreamBase {
  readonly text: TextMedia;
  private readonly callerTurns: ((text: string, spokenMs: number) => void)[] = [];
  private readonly heard: ((word: string) => void)[] = [];
  private readonly turnEnds: (() => void)[] = [];
  /** The assistant's speech and marks not played yet, in order; `intoHead`: ms of the first already played. */
  private readonly playback: Queued[] = [];
  private intoHead = 0;
  /** The caller's turn being said, and how much of it was. */
  private caller: { text: string; words: string[]; ms: number; saidMs: number } | null = null;
  private lastCallerTurn = "";
  private ended = false;

  constructor(callId: number, streamId: string) {
    super(callId, streamId, PHONE_FORMAT, 0);
    this.text = {
      onText: (listener) => this.callerTurns.push(listener),
      sendText: (text, ms) => {
        if (!this.ended) this.playback.push({ text, ms });
      },
      callerWords: () => {
        const caller = this.caller;
        if (!caller) return this.lastCallerTurn;
        return caller.words.slice(0, Math.floor(caller.saidMs / CALLER_WORD_MS)).join(" ");
      },
      turnEnded: () => {
        for (const listener of this.turnEnds) listener();
      },
    };
  }

  /** Hears the assistant: each of its words once played. */
  onAssistant(listener: (word: string) => void) {
    this.heard.push(listener);
  }

  /** Told each time the assistant finished a turn and listens. */
  onTurnEnd(listener: () => void) {
    this.turnEnds.push(listener);
  }

  /** Whether the assistant's speech is queued or playing. */
  get assistantSpeaking(): boolean {
    return this.playback.some((queued) => "text" in queued);
  }

  /** Whether the caller is saying a turn. */
  get callerSpeaking(): boolean {
    return this.caller !== null;
  }

  /**
   * The caller starts saying `text`, a whole turn: it takes its words' time on the line (a turn
   * still being said is cut short: what was said of it counts).
   */
  say(text: string) {
    if (this.ended) return;
    if (this.caller) this.finishCallerTurn(this.text.callerWords());
    const words = text.split(/\s+/).filter(Boolean);
    if (words.length === 0) return;
    this.caller = { text, words, ms: words.length * CALLER_WORD_MS, saidMs: 0 };
  }

  /** `ms` pass on the line (in whole 20 ms frames): the assistant plays, the caller talks or is silent. */
  elapse(ms: number) {
    for (let at = 0; at + FRAME_MS <= ms && !this.ended; at += FRAME_MS) {
      this.play(FRAME_MS);
      const caller = this.caller;
      if (caller) caller.saidMs += FRAME_MS;
      this.emitAudio(caller ? VOICED_FRAME : SILENT_FRAME);
      if (caller && caller === this.caller && caller.saidMs >= caller.ms) this.finishCallerTurn(caller.text);
    }
  }

  private play(ms: number) {
    let budget = ms;
    while (this.playback.length > 0 && !this.ended) {
      const head = this.playback[0]!;
      if ("mark" in head) {
        this.playback.shift();
        this.emitMark(head.mark);
        continue;
      }
      if (budget <= 0) return;
      const rest = head.ms - this.intoHead;
      if (budget < rest) {
        this.intoHead += budget;
        return;
      }
      budget -= rest;
      this.intoHead = 0;
      this.playback.shift();
      for (const listener of this.heard) listener(head.text);
    }
  }

  private finishCallerTurn(text: string) {
    const spokenMs = this.caller?.saidMs ?? 0;
    this.caller = null;
    this.lastCallerTurn = text;
    for (const listener of this.callerTurns) listener(text, spokenMs);
  }

  sendAudio(): void {}
  /** Comes back once what was queued before it was played (at once when nothing is). */
  sendMark(name: string) {
    if (this.playback.length === 0) queueMicrotask(() => this.emitMark(name));
    else this.playback.push({ mark: name });
  }
  /** Drops what was not played yet (a word cut midway was not heard); its marks come back, as Twilio returns them. */
  clearAudio(): void {
    const marks = this.playback.flatMap((queued) => ("mark" in queued ? [queued.mark] : []));
    this.playback.length = 0;
    this.intoHead = 0;
    queueMicrotask(() => {
      for (const name of marks) this.emitMark(name);
    });
  }
  close() {
    this.ended = true;
    this.emitClose();
  }
}
