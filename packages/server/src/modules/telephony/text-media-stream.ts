import { MediaStreamBase } from "./media-stream-base.ts";
import { PHONE_FORMAT, type TextMedia } from "./provider.ts";

/** 20 ms of 8 kHz mu-law silence (0xff is mu-law's zero). */
const SILENT_FRAME = new Uint8Array(160).fill(0xff);
const FRAME_MS = 20;

/**
 * A media stream of text turns (the simulated carrier): the voice engine runs the same session on
 * it as on a phone call's audio, hearing the caller's turns as text (`say`) and sending its
 * sentences as text (`onAssistant`), each "played" at once (its mark comes straight back), then
 * saying when its turn is over (`onTurnEnd`). Time on the line is what `elapse` says passed, as
 * silent frames, so silence prompts, the turn offsets and every timing the engine keeps by its
 * media clock behave as on audio.
 */
export class TextMediaStream extends MediaStreamBase {
  readonly text: TextMedia;
  private readonly callerTurns: ((text: string) => void)[] = [];
  private readonly spoken: ((text: string) => void)[] = [];
  private readonly turnEnds: (() => void)[] = [];
  private ended = false;

  constructor(callId: number, streamId: string) {
    super(callId, streamId, PHONE_FORMAT, 0);
    this.text = {
      onText: (listener) => this.callerTurns.push(listener),
      sendText: (text) => {
        for (const listener of this.spoken) listener(text);
      },
      turnEnded: () => {
        for (const listener of this.turnEnds) listener();
      },
    };
  }

  /** Listens to what the assistant says, sentence by sentence. */
  onAssistant(listener: (text: string) => void) {
    this.spoken.push(listener);
  }

  /** Told each time the assistant finished a turn and listens. */
  onTurnEnd(listener: () => void) {
    this.turnEnds.push(listener);
  }

  /** The caller says `text`, a whole turn. */
  say(text: string) {
    if (this.ended) return;
    for (const listener of this.callerTurns) listener(text);
  }

  /** `ms` of silence pass on the line (in whole 20 ms frames). */
  elapse(ms: number) {
    for (let at = 0; at + FRAME_MS <= ms && !this.ended; at += FRAME_MS) this.emitAudio(SILENT_FRAME);
  }

  sendAudio(): void {}
  sendMark(name: string) {
    queueMicrotask(() => this.emitMark(name));
  }
  clearAudio(): void {}
  close() {
    this.ended = true;
    this.emitClose();
  }
}
