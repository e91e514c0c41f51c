/**
 * Runs of digits as people write and speech transcribers print them: "4111 1111 1111 1111",
 * "4111-1111-1111-1111", "four one one one one one ...", "double four", mixed ("4111 one one one
 * one ..."). Each token keeps its place in the text, so a finding spans exactly its words.
 */

const DIGIT_WORDS: Record<string, string> = {
  zero: "0",
  oh: "0",
  o: "0",
  nought: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
};

const REPEATS: Record<string, number> = { double: 2, triple: 3 };

/** A numeral, a word that may be (part of) a spoken digit, or a mix of both (a code: never a digit). */
const TOKEN = /[A-Za-z0-9]+/g;
const NUMERAL = /^\d+$/;
/** What may stand between two tokens of one run: spaces, a comma, a dash, a dot (a transcriber's pause). */
const GAP = /^[\s,.-]{1,3}$/;

export interface DigitToken {
  digits: string;
  start: number;
  end: number;
  /** A digit word rather than a numeral. */
  spoken: boolean;
}

/** Consecutive digit tokens, each run as it stands in the text (a run is one or more tokens). */
export function digitRuns(text: string): DigitToken[][] {
  const runs: DigitToken[][] = [];
  let run: DigitToken[] = [];
  let pendingRepeat: { times: number; start: number } | null = null;
  const close = () => {
    if (run.length > 0) runs.push(run);
    run = [];
    pendingRepeat = null;
  };
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const word = match[0];
    const start = match.index;
    const end = start + word.length;
    const previous = run.at(-1);
    const joined = previous ? GAP.test(text.slice(previous.end, start)) : true;
    const lower = word.toLowerCase();
    let token: DigitToken | null = null;
    if (NUMERAL.test(word)) token = { digits: word, start, end, spoken: false };
    else if (lower in DIGIT_WORDS) {
      // A lone "o"/"oh" is a digit only within digits, never at a run's start.
      const zeroWord = lower === "o" || lower === "oh";
      if (!zeroWord || (previous && joined) || pendingRepeat)
        token = { digits: DIGIT_WORDS[lower]!, start, end, spoken: true };
    } else if (lower in REPEATS) {
      if (!joined) close();
      pendingRepeat = { times: REPEATS[lower]!, start };
      continue;
    }
    if (!token) {
      close();
      continue;
    }
    if (!joined && !pendingRepeat) close();
    if (pendingRepeat) {
      const repeat: { times: number; start: number } = pendingRepeat;
      token = { ...token, digits: token.digits.repeat(repeat.times), start: repeat.start };
      pendingRepeat = null;
    }
    run.push(token);
  }
  close();
  return runs;
}

/**
 * The longest stretch of `run`, starting at each token in turn, whose digits pass `accept`; stretches
 * do not overlap. `maxDigits` bounds the work per start.
 */
export function acceptedStretches(
  run: DigitToken[],
  minDigits: number,
  maxDigits: number,
  accept: (digits: string, tokens: DigitToken[]) => boolean,
): { start: number; end: number; digits: string }[] {
  const found: { start: number; end: number; digits: string }[] = [];
  let from = 0;
  while (from < run.length) {
    let digits = "";
    let best: { to: number; digits: string } | null = null;
    for (let to = from; to < run.length; to++) {
      digits += run[to]!.digits;
      if (digits.length > maxDigits) break;
      if (digits.length >= minDigits && accept(digits, run.slice(from, to + 1))) best = { to, digits };
    }
    if (best) {
      found.push({ start: run[from]!.start, end: run[best.to]!.end, digits: best.digits });
      from = best.to + 1;
    } else from++;
  }
  return found;
}
