import { countTokens, tokenUpperBound } from "../../tokenizer.ts";

/** Values a prompt may refer to as `{{name}}`. */
export type Variables = Record<string, string | number | boolean | null>;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/**
 * Replaces `{{name}}` (spaces inside the braces allowed) with the variable's value. An unknown
 * name is left as written, so a missing variable shows up in the conversation log instead of
 * silently becoming an empty string.
 */
export function substituteVariables(template: string, variables: Variables): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = variables[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

/** Later layers win: assistant defaults, then the conversation's, then the request's. */
/** The string, number, boolean and null entries of a stored JSON object (a call's variables). */
export function primitiveVariables(value: unknown): Variables {
  const result: Variables = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return result;
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null || ["string", "number", "boolean"].includes(typeof entry)) {
      result[key] = entry as Variables[string];
    }
  }
  return result;
}

export function mergeVariables(...layers: (Variables | null | undefined)[]): Variables {
  return Object.assign({}, ...layers.filter(Boolean)) as Variables;
}

/** "Sunday, 22 November 2026, 14:05 (Europe/Paris, UTC+01:00)": what the model needs to reason about dates. */
export function describeNow(now: Date, timezone: string): string {
  const { zone, local, offset } = clockOf(timezone);
  const shownOffset =
    offset
      .formatToParts(now)
      .find((part) => part.type === "timeZoneName")
      ?.value.replace("GMT", "UTC") ?? "UTC";
  return `${local.format(now)} (${zone}, ${shownOffset === "UTC" ? "UTC+00:00" : shownOffset})`;
}

interface Clock {
  zone: string;
  local: Intl.DateTimeFormat;
  offset: Intl.DateTimeFormat;
}

/**
 * Building a DateTimeFormat costs far more than formatting with one, so each zone's are built once.
 * Time zones are whatever assistants were saved with, hence the bound.
 */
const clocks = new Map<string, Clock>();
const CLOCKS_MAX = 1000;

function clockOf(timezone: string): Clock {
  let clock = clocks.get(timezone);
  if (!clock) {
    const zone = safeZone(timezone);
    clock = {
      zone,
      local: new Intl.DateTimeFormat("en-GB", {
        timeZone: zone,
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }),
      offset: new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }),
    };
    if (clocks.size >= CLOCKS_MAX) clocks.clear();
    clocks.set(timezone, clock);
  }
  return clock;
}

function safeZone(timezone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return timezone;
  } catch {
    return "UTC";
  }
}

/** A passage retrieved from the assistant's knowledge base. */
export interface Passage {
  content: string;
  score: number;
  source?: string | null;
  documentName?: string | null;
}

export function renderPassages(passages: readonly Passage[]): string {
  return passages
    .map((passage, index) => {
      const origin = [passage.documentName, passage.source].filter(Boolean).join(", ");
      return `[${index + 1}]${origin ? ` (${origin})` : ""}\n${passage.content.trim()}`;
    })
    .join("\n\n");
}

/** A channel whose replies are written differently from a chat window's. */
export type ReplyMedium = "sms";

/**
 * Texts are read on a phone, billed per 160-character segment and cut at 1,600 characters (docs/sms.md):
 * the model is asked for short plain text rather than having its answer cut.
 */
const SMS_STYLE =
  "This conversation is by SMS text message. Reply in plain text (no markdown, bullet lists or emoji " +
  "unless the customer uses them), briefly: ideally under 300 characters, never more than 1,000.";

export function buildSystemPrompt(options: {
  systemPrompt: string;
  variables: Variables;
  timezone: string;
  now: Date;
  passages: readonly Passage[];
  knowledgeTool: boolean;
  medium?: ReplyMedium | undefined;
}): string {
  const parts = [substituteVariables(options.systemPrompt, options.variables).trim()];
  parts.push(`Current date and time: ${describeNow(options.now, options.timezone)}.`);
  if (options.medium === "sms") parts.push(SMS_STYLE);
  if (options.passages.length > 0) {
    parts.push(
      "Answer from the following knowledge-base passages when they are relevant. If they do not " +
        "contain the answer, say that you do not know rather than guessing.\n\n" +
        renderPassages(options.passages),
    );
  }
  if (options.knowledgeTool) {
    parts.push(
      "Use the search_knowledge_base function to look up facts about the business before answering questions about it.",
    );
  }
  return parts.filter(Boolean).join("\n\n");
}

/** A message of the stored history as the model sees it. */
export interface HistoryMessage {
  role: "user" | "assistant" | "operator";
  content: string;
}

/** The most recent history the model is sent: at most this many messages... */
export const HISTORY_MAX_MESSAGES = 30;
/** ...and at most this many tokens of message text (cl100k/o200k-style count). */
export const HISTORY_MAX_TOKENS = 3000;

/** What a message costs besides its text (role and separators, as the chat format counts them). */
const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * The newest messages that fit both budgets, oldest first. The newest message is always kept,
 * cut to the token budget if it alone exceeds it, so the model always sees what it answers.
 *
 * Exact counts only matter near the budget: when even the upper bound of every candidate fits,
 * the exact walk would keep them all, so the tokenizer is neither loaded nor run. `count` is
 * replaceable so tests can watch when it is.
 */
export function historyWindow<M extends HistoryMessage>(
  history: readonly M[],
  count: (text: string) => number = countTokens,
): M[] {
  const candidates = history.slice(-HISTORY_MAX_MESSAGES);
  let bound = 0;
  for (const message of candidates) bound += tokenUpperBound(message.content) + MESSAGE_OVERHEAD_TOKENS;
  return bound <= HISTORY_MAX_TOKENS ? candidates : exactHistoryWindow(candidates, count);
}

/** `historyWindow` by exact counts alone: what it returns whether or not the bound decides. */
export function exactHistoryWindow<M extends HistoryMessage>(
  history: readonly M[],
  count: (text: string) => number = countTokens,
): M[] {
  const kept: M[] = [];
  let tokens = 0;
  for (let index = history.length - 1; index >= 0 && kept.length < HISTORY_MAX_MESSAGES; index--) {
    const message = history[index]!;
    const cost = count(message.content) + MESSAGE_OVERHEAD_TOKENS;
    if (tokens + cost > HISTORY_MAX_TOKENS) {
      if (kept.length === 0)
        kept.push({ ...message, content: message.content.slice(0, HISTORY_MAX_TOKENS * 3) });
      break;
    }
    tokens += cost;
    kept.push(message);
  }
  return kept.reverse();
}
