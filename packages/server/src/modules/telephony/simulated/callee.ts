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

/** A persona test caller ends the call by ending a line with this; it is not said. */
export const TEST_CALLER_DONE = "[DONE]";

/**
 * The caller of an agent test's phone call, as its scenario says: scripted lines said in order (at
 * most the scenario's turn limit), or a persona the model plays for at most `turns` lines.
 */
export type TestCaller =
  | { kind: "scripted"; lines: string[] }
  | { kind: "persona"; prompt: string; goal: string; turns: number };

/** Where the simulated carrier finds a test call's caller (the agent tests module); null: none. */
export type TestCallers = (callId: number) => Promise<TestCaller | null>;

const TEST_PERSONA_RULES = [
  "You are a customer who called a business and reached its AI assistant on the phone. Stay in character and never say you are an AI or a test.",
  "Say one or two short sentences at a time, as a real caller would.",
  `When what you wanted is done, or you would give up, say your last words and end them with ${TEST_CALLER_DONE}.`,
].join(" ");

/** Who the simulated person is on one call. */
export interface CalleeCall {
  accountId: number;
  /** The person called in (an inbound call) rather than being called. */
  inbound: boolean;
  variables: Variables;
  /** An agent test's call: the scenario's caller instead of the default person. */
  testCaller?: TestCaller;
}

/** One line of the person, and whether they hang up once it is answered. */
export interface CalleeLine {
  text: string;
  last: boolean;
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
    const test = call.testCaller;
    if (test) return test.kind === "scripted" ? test.lines.length : test.turns;
    return (call.inbound ? SCRIPTED_CALLER_LINES : SCRIPTED_CALLEE_LINES).length;
  }

  /**
   * The person's `turn`-th line (from 1) after hearing `conversation` (both sides, as the person
   * heard them); the last turn says goodbye.
   */
  async line(call: CalleeCall, conversation: TranscriptLine[], turn: number): Promise<CalleeLine> {
    if (call.testCaller) return this.testLine(call, call.testCaller, conversation, turn);
    const scripted = call.inbound ? SCRIPTED_CALLER_LINES : SCRIPTED_CALLEE_LINES;
    const last = turn >= scripted.length;
    if (!this.engine.modelConfigured) return { text: scripted[Math.min(turn, scripted.length) - 1]!, last };
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
    return { text: reply, last };
  }

  /** A test caller's line: the script's, or the persona's (which may finish before its last turn). */
  private async testLine(
    call: CalleeCall,
    caller: TestCaller,
    conversation: TranscriptLine[],
    turn: number,
  ): Promise<CalleeLine> {
    if (caller.kind === "scripted")
      return { text: caller.lines[turn - 1] ?? "", last: turn >= caller.lines.length };
    const history = conversation.map((line) => ({
      role: line.speaker === "assistant" ? ("user" as const) : ("assistant" as const),
      content: line.text,
    }));
    if (history.length === 0)
      history.push({ role: "user", content: "(The assistant picked up; nobody has said anything yet.)" });
    const { reply } = await this.engine.generate({
      accountId: call.accountId,
      assistant: simulatedCustomer(
        "Customer",
        `${caller.prompt}\n\nWhat you want: ${caller.goal}\n\n${TEST_PERSONA_RULES}`,
      ),
      history,
      passages: [],
      variables: call.variables,
    });
    const done = reply.includes(TEST_CALLER_DONE);
    return { text: reply.replaceAll(TEST_CALLER_DONE, "").trim(), last: done || turn >= caller.turns };
  }
}
