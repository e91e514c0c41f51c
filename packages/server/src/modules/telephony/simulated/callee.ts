import { type ReplyEngine, simulatedCustomer, type Variables } from "../../message-pipeline/index.ts";
import type { TranscriptLine } from "../provider.ts";

/** What a scripted callee says, one line per turn; after the last one it hangs up. */
export const SCRIPTED_CALLEE_LINES = [
  "Hi, yes, I'm listening. What is this about?",
  "I see. Could you tell me a little more?",
  "Alright, thank you. Goodbye.",
] as const;

/** What a scripted caller (an incoming call) says, one line per turn; after the last one it hangs up. */
export const SCRIPTED_CALLER_LINES = [
  "Hi, I'm calling with a question about your service.",
  "Alright. And what would you suggest I do next?",
  "Great, that helps. Thank you, goodbye.",
] as const;

const VOICEMAIL_GREETING = "Hi, you've reached my voicemail. Please leave a message after the beep.";

const PERSONA_PROMPTS = {
  outbound: "You are a person who just answered a phone call from a company's AI assistant.",
  inbound: "You are a person who called a company and reached its AI assistant, with a question of your own.",
} as const;

const PERSONA_RULES = [
  "Answer briefly and naturally, in one or two short sentences, as a slightly busy but polite person.",
  "Never say you are an AI. When told this is your last reply, say goodbye.",
].join(" ");

/** The persona's cue when nobody has spoken yet: a person who picks up says hello. */
const PICKED_UP = "(You picked up; nobody has said anything yet.)";

/** Who the simulated person is on one call. */
export interface CalleeCall {
  accountId: number;
  /** The person called in (an inbound call) rather than being called. */
  inbound: boolean;
  variables: Variables;
}

/**
 * The simulated person on a call's other end: an LLM persona through the configured model, or
 * scripted lines without one. It only composes lines; the carrier's line (line.ts) decides when
 * they are said, and the assistant answers through the voice engine like on any call.
 */
export class SimulatedCallee {
  constructor(private readonly engine: ReplyEngine) {}

  voicemailGreeting(): string {
    return VOICEMAIL_GREETING;
  }

  /** The lines the person says before hanging up. */
  turns(call: CalleeCall): number {
    return (call.inbound ? SCRIPTED_CALLER_LINES : SCRIPTED_CALLEE_LINES).length;
  }

  /**
   * The person's `turn`-th line (from 1) after hearing `conversation` (both sides, as the person
   * heard them); the last turn says goodbye.
   */
  async line(call: CalleeCall, conversation: TranscriptLine[], turn: number): Promise<string> {
    const scripted = call.inbound ? SCRIPTED_CALLER_LINES : SCRIPTED_CALLEE_LINES;
    if (!this.engine.modelConfigured) return scripted[Math.min(turn, scripted.length) - 1]!;
    // The persona sees the call from the other side: the assistant's lines are what it hears.
    const history = conversation.map((line) => ({
      role: line.speaker === "assistant" ? ("user" as const) : ("assistant" as const),
      content: line.text,
    }));
    if (history.length === 0) history.push({ role: "user", content: PICKED_UP });
    if (turn >= scripted.length)
      history.push({ role: "user", content: "(This is your last reply: say goodbye.)" });
    const { reply } = await this.engine.generate({
      accountId: call.accountId,
      assistant: simulatedCustomer(
        "Callee",
        `${call.inbound ? PERSONA_PROMPTS.inbound : PERSONA_PROMPTS.outbound} ${PERSONA_RULES}`,
      ),
      history,
      passages: [],
      variables: call.variables,
    });
    return reply;
  }
}
