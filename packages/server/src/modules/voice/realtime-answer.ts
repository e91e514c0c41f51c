import type { Logger } from "../../logger.ts";
import type { ModelFunctionResult } from "./realtime-functions.ts";
import type { SentenceQueue, Utterance } from "./utterance.ts";

/** How long a fixed phrase asked of the model may take to start; past it the session goes on without it. */
const SCRIPTED_PHRASE_TIMEOUT_MS = 15_000;

/** A fixed phrase asked of the model: told once the model has generated it, and once it was played. */
export interface ScriptedPhrase {
  generated(): void;
  played(): void;
}

/** One model response on its way to the caller. */
export interface Answer {
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
  calls: Promise<ModelFunctionResult>[];
  filled: boolean;
  /** Multimodal: a function other than end_call runs, so the model says a filler once this response is done. */
  wantsFiller: boolean;
  finished: boolean;
  /** Lets the next answer's speech start. */
  release: () => void;
  /** When the response is a fixed phrase asked of the model: who waits for it. */
  scripted: ScriptedPhrase | null;
}

/** A response just begun: nothing of it received yet. */
export function newAnswer(parts: Pick<Answer, "utterance" | "sentences" | "release" | "scripted">): Answer {
  return {
    utterance: parts.utterance,
    itemId: null,
    transcript: "",
    pending: "",
    sentences: parts.sentences,
    carry: new Uint8Array(0),
    modelCarry: new Uint8Array(0),
    markedMs: 0,
    calls: [],
    filled: false,
    wantsFiller: false,
    finished: false,
    release: parts.release,
    scripted: parts.scripted,
  };
}

/**
 * Fixed phrases asked of the model, waiting for their response to start (the model answers in
 * order). A model that never starts one must not hold the call's later turns (the silence goodbye
 * and hang-up) forever: past the timeout the phrase counts as generated and played.
 */
export class ScriptedPhrases {
  private readonly waiting: ScriptedPhrase[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly callId: number,
  ) {}

  /** A phrase about to be asked of the model: when it was generated, and when it was played. */
  expect(): { generated: Promise<void>; played: Promise<void> } {
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
      const index = this.waiting.indexOf(phrase);
      if (index < 0) return;
      this.waiting.splice(index, 1);
      this.logger.warn("realtime model did not speak a fixed phrase", { callId: this.callId });
      generated();
      played();
    }, SCRIPTED_PHRASE_TIMEOUT_MS);
    this.waiting.push(phrase);
    return result;
  }

  /** A response began: the phrase it speaks, if one is waiting. */
  next(): ScriptedPhrase | null {
    return this.waiting.shift() ?? null;
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
