import { endpointMs } from "./turn-detector.ts";

/**
 * Words after which a sentence cannot end: conjunctions, prepositions, articles, possessives and
 * fillers. A turn whose transcript ends on one of them is the caller pausing mid-thought.
 */
const CONTINUATIONS = new Set([
  ..."and but or nor so because cause since although though while if unless until when whereas then than".split(
    " ",
  ),
  ..."to of in on at for with from by about into onto over under between after before like as".split(" "),
  ..."a an the my your our their his her its this that these those which who whose what where".split(" "),
  ..."um umm uh uhh er erm hmm mm well basically actually i i'm we're you're it's is are was were".split(" "),
]);

/** A turn's text is held at most this long after the caller's last word (ms of media). */
const MAX_UNFINISHED_WAIT_MS = 2500;

/**
 * The two silences of `endpoint_type: semantic` in pipeline mode, from `endpoint_sensitivity`:
 * `settled`, after which the turn so far is transcribed and, when it reads as finished, answered
 * (half the `vad` wait, at least 200 ms: 375 ms by default), and `unfinished`, how long a turn that
 * reads as unfinished waits for more (twice the `vad` wait, at most 2.5 s: 1.5 s by default).
 */
export function semanticWaits(sensitivity: number): { settled: number; unfinished: number } {
  const vad = endpointMs(sensitivity);
  return {
    settled: Math.max(200, Math.round(vad / 2)),
    unfinished: Math.min(MAX_UNFINISHED_WAIT_MS, vad * 2),
  };
}

/**
 * Whether a transcript reads as a thought the caller has not finished: it ends with a comma, a
 * dash or an ellipsis, or on a continuation word (and, because, the, um, …) with no full stop after
 * it, or, from a transcriber that punctuates, without the terminal mark (. ! ?) of a finished
 * sentence. A transcript without any punctuation is judged by its last word alone.
 */
export function looksUnfinished(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed) return false;
  if (/(,|;|:|-|–|—|\.\.\.|…)$/.test(trimmed)) return true;
  if (/[.!?。！？]["')\]]?$/.test(trimmed)) return false;
  const lastWord = trimmed
    .toLowerCase()
    .split(/\s+/)
    .at(-1)!
    .replace(/[^\p{L}\p{N}']/gu, "");
  if (CONTINUATIONS.has(lastWord)) return true;
  return /[.!?,;。！？]/.test(trimmed);
}
