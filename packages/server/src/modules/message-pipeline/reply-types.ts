import type { FunctionSet, LiveCallFunctions } from "./function-sets.ts";
import type { HistoryMessage, Passage, ReplyMedium, Variables } from "./prompt.ts";
import type { FunctionCallRecord } from "./tools.ts";

/** Knowledge-base retrieval as the reply engine needs it (implemented by the knowledge module). */
export interface KnowledgeSearch {
  search(
    accountId: number,
    knowledgebaseId: number,
    query: string,
    options: { limit: number; mode: "vector" | "keyword" | "hybrid" },
  ): Promise<Passage[]>;
}

/** The assistant settings a reply depends on. */
export interface ReplyAssistant {
  name: string;
  systemPrompt: string;
  initialMessage: string;
  timezone: string;
  llmTemperature: { toString(): string };
  knowledgebaseId: number | null;
  knowledgebaseMode: string;
  tools: unknown;
  /** The catalogue's chat model the assistant selected; null (or absent) = OPENAI_MODEL. */
  llmModelId?: number | null;
}

/** Chat models by catalogue id (modules/providers implements it). */
export interface ChatModelCatalogue {
  /** The model's name for the API, or null when the id names no chat model. */
  chatModelName(id: number): Promise<string | null>;
  /** The account's own key for the chat API, or null: the deployment's key is used. */
  chatKeyFor(accountId: number): Promise<string | null>;
}

export interface ReplyRequest {
  accountId: number;
  assistant: ReplyAssistant;
  /** The conversation so far, oldest first, ending with the message to answer. */
  history: HistoryMessage[];
  /** What `knowledgeFor` found for the message to answer. */
  passages: Passage[];
  variables: Variables;
  /** Receives the reply's text as the model produces it. */
  onDelta?: (text: string) => void;
  /** A live call: `end_call` and `send_dtmf` are offered, and function calls are announced (fillers). */
  liveCall?: LiveCallFunctions;
  /** Further built-in functions for this conversation or call (texting, calendar booking). */
  functions?: readonly FunctionSet[];
  /** How the reply reaches the customer, when it shapes how it is written (a text message). */
  medium?: ReplyMedium;
}

export interface ReplyResult {
  reply: string;
  functionCalls: FunctionCallRecord[];
  /** "fallback" when no model is configured and the answer was assembled without AI. */
  generatedBy: "model" | "fallback";
}

/**
 * A simulated customer played by the model (the simulated carrier's callee, an agent test's persona):
 * no knowledge, no tools, a little variety in its wording.
 */
export function simulatedCustomer(name: string, systemPrompt: string): ReplyAssistant {
  return {
    name,
    systemPrompt,
    initialMessage: "",
    timezone: "UTC",
    llmTemperature: "0.7",
    knowledgebaseId: null,
    knowledgebaseMode: "hybrid",
    tools: [],
  };
}
