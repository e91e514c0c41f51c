import { concatBytes, type Playback } from "./playback.ts";
import type { SpeechFormat, SpeechStream } from "./speech.ts";
import { type SentenceQueue, splitSentences, type Utterance } from "./utterance.ts";

/** Where one answer's text goes as the model writes it, on its way to the caller's ear. */
export interface AnswerVoice {
  /** Some text was given to it. */
  readonly spoke: boolean;
  /** More of the model's text. */
  delta(text: string): void;
  /** A whole sentence (a filler, or an answer that came without deltas). */
  sentence(text: string): void;
  /** No more text: resolves once everything was sent (or a barge-in dropped it). */
  finish(): Promise<void>;
}

/** What a streamed answer reads of its call, and tells it when the provider fails mid-answer. */
export interface StreamedVoiceCall {
  closed(): boolean;
  /** The rest of the call speaks sentence by sentence. */
  failed(error: unknown): void;
}

/** Sentence by sentence through text-to-speech, as each of the model's sentences is complete. */
export function batchVoice(sentences: SentenceQueue, signal: AbortSignal): AnswerVoice {
  let pending = "";
  return {
    get spoke() {
      return sentences.queued > 0 || pending.trim() !== "";
    },
    delta: (delta) => {
      pending += delta;
      const split = splitSentences(pending);
      pending = split.rest;
      for (const sentence of split.sentences) sentences.push(sentence);
    },
    sentence: (sentence) => sentences.push(sentence),
    finish: async () => {
      if (pending.trim() && !signal.aborted) sentences.push(pending.trim());
      pending = "";
      await sentences.drained();
    },
  };
}

/**
 * The answer's text pushed to the provider as the model writes it (a flush at each sentence's
 * end), its audio sent as it comes with a mark per chunk naming the text it voices. A provider
 * that fails mid-answer hands what it had not voiced yet, and the rest of the call, to the
 * sentence-by-sentence path.
 */
export function streamedVoice(
  playback: Playback,
  call: StreamedVoiceCall,
  utterance: Utterance,
  signal: AbortSignal,
  stream: SpeechStream,
  format: SpeechFormat,
  batch: AnswerVoice,
): AnswerVoice {
  utterance.markPer = "text";
  let pushed = "";
  let pending = "";
  let received = "";
  let fallback: AnswerVoice | null = null;
  const pump = (async () => {
    let carry: Uint8Array = new Uint8Array(0);
    let out: Uint8Array = new Uint8Array(0);
    try {
      for await (const chunk of stream.audio) {
        if (utterance.cleared || call.closed()) break;
        received += chunk.text;
        out = concatBytes(
          out,
          playback.providerAudioIn(chunk.audio, carry, format, (rest) => (carry = rest)),
        );
        out = playback.sendFrames(utterance, out, false);
        playback.markPlayback(utterance, chunk.text);
      }
    } catch (error) {
      // What the provider did say is played whole before the fallback's speech goes on from it.
      if (!utterance.cleared && !call.closed()) playback.sendFrames(utterance, out, true);
      throw error;
    }
    if (utterance.cleared || call.closed()) return;
    playback.sendFrames(utterance, out, true);
    playback.markPlayback(utterance);
  })().catch((error: unknown) => {
    if (signal.aborted || utterance.cleared || call.closed()) return;
    call.failed(error);
    // What the provider did not voice is said again from its first unvoiced word.
    const voicedWords = received.split(/\s+/).filter(Boolean).length;
    const rest = pushed.split(/\s+/).filter(Boolean).slice(voicedWords).join(" ");
    utterance.sentences = received.trim() ? [received.replace(/\s+/g, " ").trim()] : [];
    fallback = batch;
    if (rest) fallback.delta(`${rest}${/\s$/.test(pushed) ? " " : ""}`);
  });
  const push = (text: string) => {
    pushed += text;
    stream.pushText(text);
  };
  return {
    get spoke() {
      return pushed.trim() !== "";
    },
    delta: (delta) => {
      if (signal.aborted) return;
      if (fallback) return fallback.delta(delta);
      push(delta);
      pending += delta;
      const split = splitSentences(pending);
      pending = split.rest;
      if (split.sentences.length === 0) return;
      utterance.sentences.push(...split.sentences);
      stream.flush();
    },
    sentence: (sentence) => {
      if (signal.aborted) return;
      if (fallback) return fallback.sentence(sentence);
      // A whole sentence (a filler) between the model's: it ends what came before.
      push(`${pending ? " " : ""}${sentence} `);
      if (pending.trim()) utterance.sentences.push(pending.trim());
      pending = "";
      utterance.sentences.push(sentence);
      stream.flush();
    },
    finish: async () => {
      if (!fallback && !signal.aborted) {
        if (pending.trim()) utterance.sentences.push(pending.trim());
        pending = "";
        stream.end();
      }
      await pump;
      const rest = fallback as AnswerVoice | null;
      if (rest) await rest.finish();
    },
  };
}
