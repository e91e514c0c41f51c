import { AppError } from "../../errors.ts";
import type { Passage } from "./prompt.ts";
import { type FunctionCallRecord, KNOWLEDGE_TOOL_NAME } from "./tools.ts";

/** A function in the shape the OpenAI Realtime API's session takes it (chat completions wrap it). */
export interface RealtimeFunction {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * Built-in functions a module offers the model (texting, calendar booking, ...). The caller of the
 * reply engine builds the sets that fit the conversation or call (who the customer is, which turn),
 * so the engine only offers and dispatches: a new kind of built-in is a new set, not a new branch.
 * A built-in's name wins over an owner's webhook function of that name.
 */
export interface FunctionSet {
  definitions(): RealtimeFunction[];
  /**
   * Runs `name` if this set offers it, else resolves undefined. Expected refusals are records with
   * an `error` the model is told; anything thrown fails the reply.
   */
  run(name: string, args: Record<string, unknown>): Promise<FunctionCallRecord | undefined>;
}

/** The function a live call's model calls to hang up. */
export const END_CALL_TOOL_NAME = "end_call";
/** The function a live call's model calls to press keypad digits (navigating a phone menu). */
export const SEND_DTMF_TOOL_NAME = "send_dtmf";
/** Digits `send_dtmf` accepts at once. */
const MAX_DTMF_DIGITS = 32;

export function refused(name: string, error: string, args: Record<string, unknown> = {}): FunctionCallRecord {
  return { name, arguments: args, result: null, error, duration_ms: 0 };
}

/**
 * Runs a built-in and records it, timed: an expected failure (an AppError) becomes the record's
 * `error`, worded for the model; anything else is a fault and is thrown.
 */
export async function runBuiltin(
  name: string,
  args: Record<string, unknown>,
  work: () => Promise<unknown>,
): Promise<FunctionCallRecord> {
  const started = performance.now();
  const finish = (result: unknown, error: string | null): FunctionCallRecord => ({
    name,
    arguments: args,
    result,
    error,
    duration_ms: Math.round(performance.now() - started),
  });
  try {
    return finish(await work(), null);
  } catch (error) {
    if (error instanceof AppError) return finish(null, error.message);
    throw error;
  }
}

/**
 * What a live call adds to the model's functions. `end_call`'s record asks to hang up after the
 * reply; `send_dtmf` plays keypad digits to the other side (an IVR).
 */
export interface LiveCallFunctions {
  sendDigits(digits: string): Promise<void>;
  /** A function (other than end_call) is about to run: the caller may hear a filler meanwhile. */
  onFunctionCall?(name: string): void;
}

export const LIVE_CALL_FUNCTIONS: readonly RealtimeFunction[] = [
  {
    type: "function",
    name: END_CALL_TOOL_NAME,
    description:
      "Ends the phone call after your reply is spoken. Use it once the conversation is over and you have said goodbye.",
    parameters: { type: "object", properties: {} },
  },
  {
    type: "function",
    name: SEND_DTMF_TOOL_NAME,
    description:
      "Presses keys on the phone's keypad (tones the other side hears), e.g. to choose an option in an automated phone menu.",
    parameters: {
      type: "object",
      properties: {
        digits: { type: "string", description: "The keys to press in order: 0-9, * and #." },
      },
      required: ["digits"],
    },
  },
];

export function liveCallFunctionSet(live: LiveCallFunctions): FunctionSet {
  return {
    definitions: () => [...LIVE_CALL_FUNCTIONS],
    run: async (name, args) => {
      if (name === END_CALL_TOOL_NAME)
        return { name, arguments: args, result: { ended: true }, error: null, duration_ms: 0 };
      if (name !== SEND_DTMF_TOOL_NAME) return undefined;
      const digits = typeof args.digits === "string" ? args.digits.replace(/\s+/g, "") : "";
      if (!/^[0-9*#A-Da-d]+$/.test(digits) || digits.length > MAX_DTMF_DIGITS)
        return refused(name, `digits must be 1 to ${MAX_DTMF_DIGITS} of 0-9, *, #, A-D.`, args);
      const keys = digits.toUpperCase();
      return runBuiltin(name, args, async () => {
        await live.sendDigits(keys);
        return { sent: keys };
      });
    },
  };
}

/** `search_knowledge_base`, for assistants whose model searches their knowledge base by itself. */
export function knowledgeFunctionSet(search: (query: string) => Promise<Passage[]>): FunctionSet {
  return {
    definitions: () => [
      {
        type: "function",
        name: KNOWLEDGE_TOOL_NAME,
        description: "Searches the business's knowledge base and returns the most relevant passages.",
        parameters: {
          type: "object",
          properties: { query: { type: "string", description: "What to look up, in a few words." } },
          required: ["query"],
        },
      },
    ],
    run: async (name, args) => {
      if (name !== KNOWLEDGE_TOOL_NAME) return undefined;
      const query = typeof args.query === "string" ? args.query : "";
      return runBuiltin(name, args, async () =>
        (await search(query)).map((passage) => ({
          content: passage.content,
          score: passage.score,
          source: passage.source ?? null,
          document: passage.documentName ?? null,
        })),
      );
    },
  };
}
