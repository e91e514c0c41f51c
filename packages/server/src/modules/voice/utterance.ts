import type { TurnTimings } from "./session-ports.ts";

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

/** A new utterance, not yet played: `done` resolves once `finish` is called. */
export function newUtterance(timings: TurnTimings): Utterance {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
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
