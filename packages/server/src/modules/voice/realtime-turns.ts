import type { TurnTimings } from "./session-ports.ts";

/** Media milliseconds of the caller's speech, from the start of the stream. */
export interface SpeechSpan {
  startMs: number;
  endMs: number;
}

/** When the caller's speech that a response answers ended, and when it was transcribed. */
export type AnsweredSpeech = Pick<TurnTimings, "speechEndedAt" | "transcriptAt">;

/**
 * The caller's side of a realtime call's turns, as the model's voice activity and input
 * transcription report it: the span each caller turn is stored with, and which speech the next
 * response answers (its latency counts from there).
 */
export class CallerSpeech {
  /** The caller's last speech (model's VAD), which the next response answers. */
  private speech: (SpeechSpan & { endedAt: number }) | null = null;
  /**
   * The caller's last speech waiting for its transcription, which the API runs beside the response and
   * may send after the response began (when `speech` is taken): the caller's turn keeps its own times.
   */
  private untranscribed: SpeechSpan | null = null;
  private startMs = 0;
  /** When the caller's last speech was transcribed (the model's input transcription). */
  private transcribedAt = 0;
  /**
   * The caller's speech that an answer's functions were run for: the response the model writes from
   * their results answers it too, so its latency counts from that speech, as the pipeline's does.
   */
  private continued: AnsweredSpeech | null = null;

  /** The caller began speaking at `startMs` of the media clock. */
  started(startMs: number) {
    this.startMs = startMs;
  }

  /** The caller stopped speaking at `endMs`; the media clock is at `nowMs`. */
  stopped(endMs: number, nowMs: number) {
    this.speech = { startMs: this.startMs, endMs, endedAt: Date.now() - (nowMs - endMs) };
    this.untranscribed = { startMs: this.startMs, endMs };
  }

  /**
   * The caller's words were transcribed (`text`, empty when nothing was understood): the span of the
   * speech they are, or null for no words.
   */
  transcribed(text: string, nowMs: number): SpeechSpan | null {
    const span = this.untranscribed ?? { startMs: this.startMs, endMs: nowMs };
    this.untranscribed = null;
    if (!text) return null;
    this.transcribedAt = Date.now();
    return span;
  }

  /** When the caller's last speech was transcribed. */
  get lastTranscribedAt(): number {
    return this.transcribedAt;
  }

  /**
   * A response began: the speech it answers. A fixed phrase asked of the model (`scripted`) answers
   * none, and leaves the continued speech for the response that follows; anything else answers now.
   */
  responded(scripted: boolean): AnsweredSpeech | null {
    const speech = scripted ? null : this.speech;
    this.speech = null;
    const continued = scripted ? null : this.continued;
    if (!scripted) this.continued = null;
    if (!speech) return continued;
    return {
      speechEndedAt: speech.endedAt,
      transcriptAt: this.transcribedAt >= speech.endedAt ? this.transcribedAt : null,
    };
  }

  /** The model goes on from an answer's function results: its next response answers that answer's speech. */
  continueFrom({ speechEndedAt, transcriptAt }: TurnTimings) {
    this.continued = speechEndedAt === null ? null : { speechEndedAt, transcriptAt };
  }
}
