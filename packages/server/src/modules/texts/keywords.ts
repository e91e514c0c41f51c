/**
 * The words carriers and the CTIA's guidelines require a number to obey in an inbound text: an
 * opt-out stops every further text from that number to the sender until an opt-in; HELP is
 * answered with who is texting and how to stop. Matched on the whole text, trimmed and in any case
 * ("stop", " Stop. " too), as carriers match them.
 */
const OPT_OUT = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]);
const OPT_IN = new Set(["START", "UNSTOP"]);
const HELP = new Set(["HELP", "INFO"]);

export type TextKeyword =
  | { kind: "opt-out"; keyword: string }
  | { kind: "opt-in"; keyword: string }
  | { kind: "help"; keyword: string };

export function textKeyword(body: string): TextKeyword | null {
  const word = body
    .trim()
    .replace(/[.!]+$/, "")
    .toUpperCase();
  if (OPT_OUT.has(word)) return { kind: "opt-out", keyword: word };
  if (OPT_IN.has(word)) return { kind: "opt-in", keyword: word };
  if (HELP.has(word)) return { kind: "help", keyword: word };
  return null;
}

/** The fixed answers (docs/sms.md). */
export const KEYWORD_REPLIES = {
  "opt-out":
    "You have been unsubscribed and will receive no further messages from this number. Reply START to resubscribe.",
  "opt-in":
    "You have been resubscribed to messages from this number. Reply STOP to unsubscribe, HELP for help.",
  help: "Automated messages from this number. Reply STOP to unsubscribe, START to resubscribe. Msg & data rates may apply.",
} as const;
