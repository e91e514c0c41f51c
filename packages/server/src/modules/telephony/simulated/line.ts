import type { Logger } from "../../../logger.ts";
import type { TextMediaStream } from "../../media/index.ts";
import type { TranscriptLine } from "../provider.ts";
import type { CalleeCall, SimulatedCallee } from "./callee.ts";

/** Who is on the far end of a simulated line. */
export type FarEnd =
  /** A person who talks (callee.ts) and hangs up after their last line. */
  | "person"
  /** A person who stays on the line without a word, until Voxgate hangs up. */
  | "silent"
  /** An answering machine: its greeting, then silence. */
  | "machine";

/** Words of an assistant's turn an impatient person hears before talking over it. */
export const IMPATIENT_AFTER_WORDS = 4;

/** Call seconds a person takes before speaking: to say hello when nobody speaks, and to answer. */
export const LINE_PAUSES = { firstWords: 3, reply: 2 } as const;

/** Real milliseconds between two moves of the line's clock (one 20 ms frame at clock speed 1). */
const TICK_MS = 20;
const FRAME_MS = 20;

export interface LineParts {
  callee: SimulatedCallee;
  call: CalleeCall;
  farEnd: FarEnd;
  /**
   * A person who talks over the assistant once they heard this many words of its turn (an
   * impatient one), or null: a person who waits for the assistant to finish.
   */
  interruptAfterWords: number | null;
  /** How much faster than real time the line's clock runs (the carrier's clock speed). */
  clockSpeed: number;
  logger: Logger;
  /** The person said their last line and heard the answer: they hang up. */
  hangUp(): void;
}

/**
 * One answered simulated call's line: the far end (a person, a silent one, an answering machine)
 * talking with the voice engine over a `TextMediaStream`. Time on the line runs at the carrier's
 * clock speed as silent frames (the engine's media clock: silence prompts, turn offsets), except
 * while the person composes a line (an LLM persona's latency is not the caller's silence). Speech
 * takes line time both ways (text-media-stream.ts). The person speaks when the assistant's turn is
 * over (`onTurnEnd`), after a pause of line time; an impatient one (`interruptAfterWords`) talks over
 * the assistant once it heard that many words of its turn, and the engine barges in as on audio.
 */
export class SimulatedLine {
  private lineMs = 0;
  private frames = 0;
  private lastTick = 0;
  private ticker: NodeJS.Timeout | null = null;
  /** What the person does next, at a moment of line time. */
  private next: { atMs: number; run: () => void } | null = null;
  private composing = false;
  private said = 0;
  private leaving = false;
  private stopped = false;
  /** The conversation as the person heard it, and the words heard of the assistant's turn in progress. */
  private readonly heard: TranscriptLine[] = [];
  private current: string[] = [];
  /** The person talked over the assistant's turn in progress: the answer to that comes next. */
  private interrupted = false;

  constructor(
    readonly stream: TextMediaStream,
    private readonly parts: LineParts,
  ) {
    stream.onAssistant((word) => {
      this.current.push(word);
      const { farEnd, interruptAfterWords } = this.parts;
      if (farEnd !== "person" || this.composing || this.stopped) return;
      // The assistant talks: what the person meant to say next (a hello) waits for its turn's end.
      this.next = null;
      // Someone who said goodbye waits for the answer, then hangs up.
      if (this.leaving) return;
      if (interruptAfterWords !== null && !this.interrupted && this.current.length >= interruptAfterWords) {
        this.interrupted = true;
        this.keepHeard();
        this.speak();
      }
    });
    stream.onTurnEnd(() => this.assistantDone());
    stream.onClose(() => this.stop());
  }

  /** The engine listens: the line's clock starts, and the far end picks up. */
  start() {
    if (this.stopped) return;
    this.lastTick = Date.now();
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.ticker.unref();
    if (this.parts.farEnd === "machine") this.stream.say(this.parts.callee.voicemailGreeting());
    // Someone who picked up says hello when the assistant does not speak first.
    if (this.parts.farEnd === "person" && this.heard.length === 0 && this.current.length === 0)
      this.after(LINE_PAUSES.firstWords, () => this.speak());
  }

  /** Stops the clock and the far end; the stream stays as it is (the carrier closes it). */
  stop() {
    this.stopped = true;
    this.next = null;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  private assistantDone() {
    this.keepHeard();
    if (this.parts.farEnd !== "person" || this.stopped) return;
    if (this.interrupted) {
      // The turn the person talked over ended (cut, or said whole when the assistant does not
      // yield): the answer to what they said is the turn they wait for.
      this.interrupted = false;
      return;
    }
    if (this.leaving) {
      // Hung up: no more time passes on this end of the line while the carrier reports the end.
      this.stop();
      return this.parts.hangUp();
    }
    if (!this.composing) this.after(LINE_PAUSES.reply, () => this.speak());
  }

  private keepHeard() {
    if (this.current.length > 0) this.heard.push({ speaker: "assistant", text: this.current.join(" ") });
    this.current = [];
  }

  private after(callSeconds: number, run: () => void) {
    this.next = { atMs: this.lineMs + callSeconds * 1000, run };
  }

  private speak() {
    const turn = ++this.said;
    this.composing = true;
    this.parts.callee
      .line(this.parts.call, [...this.heard], turn)
      .then(({ text, last }) => {
        this.composing = false;
        if (this.stopped) return;
        // Nothing left to say (a persona that only said goodbye's marker): the person hangs up.
        if (text === "") {
          this.stop();
          return this.parts.hangUp();
        }
        this.heard.push({ speaker: "customer", text });
        this.leaving = last || turn >= this.parts.callee.turns(this.parts.call);
        this.stream.say(text);
      })
      .catch((error: unknown) => {
        this.composing = false;
        // Silence, as a person lost for words: the assistant's prompts give them another turn.
        this.parts.logger.warn("the simulated callee could not compose a line", {
          callId: this.stream.callId,
          error,
        });
      });
  }

  /** Moves the line's clock by the real time since the last tick, running what falls due on the way. */
  private tick() {
    const now = Date.now();
    const elapsedMs = (now - this.lastTick) * this.parts.clockSpeed;
    this.lastTick = now;
    if (this.composing || this.stopped) return;
    const target = this.lineMs + elapsedMs;
    while (this.next && this.next.atMs <= target) {
      const { atMs, run } = this.next;
      this.next = null;
      this.moveTo(atMs);
      // The assistant talks (a prompt, an answer that came first): the person waits for its turn's end.
      if (this.stream.assistantSpeaking) continue;
      run();
      if (this.composing || this.stopped) return;
    }
    this.moveTo(target);
  }

  private moveTo(ms: number) {
    this.lineMs = ms;
    const due = Math.floor(ms / FRAME_MS) - this.frames;
    if (due <= 0) return;
    this.frames += due;
    this.stream.elapse(due * FRAME_MS);
  }
}
