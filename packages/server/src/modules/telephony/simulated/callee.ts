import type { ServiceDeps } from "../../../deps.ts";
import type { ReplyEngine, Variables } from "../../message-pipeline/index.ts";
import { primitiveVariables, replyAssistantColumns } from "../../message-pipeline/index.ts";
import { parseTranscript } from "../transcript.ts";

/** What a scripted callee says, one line per turn; the last one ends the call. */
export const SCRIPTED_CALLEE_LINES = [
  "Hi, yes, I'm listening. What is this about?",
  "I see. Could you tell me a little more?",
  "Alright, thank you. Goodbye.",
] as const;

/** What a scripted caller (an incoming call) says, one line per turn; the last one ends the call. */
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

/**
 * The two voices of a simulated call: the callee (an LLM persona through the configured model,
 * or scripted lines without one) and the assistant, answering through the same reply engine as
 * every other conversation. Turns alternate until the callee's last turn, which ends the call.
 */
export class SimulatedCallee {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly engine: ReplyEngine,
  ) {}

  voicemailGreeting(): string {
    return VOICEMAIL_GREETING;
  }

  /** What the assistant says first when a person answers. */
  async assistantOpening(callId: number): Promise<string> {
    const call = await this.load(callId);
    const name = call?.assistant?.name ?? call?.assistantName ?? "the assistant";
    const question = call?.type === "inbound" ? "How can I help you?" : "Do you have a minute?";
    return call?.assistant?.initialMessage.trim() || `Hello, this is ${name}. ${question}`;
  }

  /** Turn `turn` (from 1): the callee speaks, then the assistant answers unless the callee hung up. */
  async exchange(
    callId: number,
    turn: number,
  ): Promise<{ customer: string; assistant: string | null; finished: boolean }> {
    const call = await this.load(callId);
    const scripted = call?.type === "inbound" ? SCRIPTED_CALLER_LINES : SCRIPTED_CALLEE_LINES;
    const finished = turn >= scripted.length;
    if (!call?.assistant) return { customer: scripted.at(-1)!, assistant: null, finished: true };
    const lines = parseTranscript(call.transcript);
    const variables = primitiveVariables(call.variables);
    const customer = this.engine.modelConfigured
      ? await this.personaLine(call.accountId, call.type === "inbound", lines, variables, finished)
      : scripted[Math.min(turn, scripted.length) - 1]!;
    if (finished) return { customer, assistant: null, finished };
    const history = [
      ...lines.map((line) => ({
        role: line.speaker === "assistant" ? ("assistant" as const) : ("user" as const),
        content: line.text,
      })),
      { role: "user" as const, content: customer },
    ];
    const passages = await this.engine.knowledgeFor(call.accountId, call.assistant, customer);
    const { reply } = await this.engine.generate({
      accountId: call.accountId,
      assistant: call.assistant,
      history,
      passages,
      variables,
    });
    return { customer, assistant: reply, finished };
  }

  private async personaLine(
    accountId: number,
    calledIn: boolean,
    lines: { speaker: "assistant" | "customer"; text: string }[],
    variables: Variables,
    last: boolean,
  ): Promise<string> {
    // The persona sees the call from the other side: the assistant's lines are what it hears.
    const history = lines.map((line) => ({
      role: line.speaker === "assistant" ? ("user" as const) : ("assistant" as const),
      content: line.text,
    }));
    if (last) history.push({ role: "user", content: "(This is your last reply: say goodbye.)" });
    const { reply } = await this.engine.generate({
      accountId,
      assistant: {
        name: "Callee",
        systemPrompt: `${calledIn ? PERSONA_PROMPTS.inbound : PERSONA_PROMPTS.outbound} ${PERSONA_RULES}`,
        initialMessage: "",
        timezone: "UTC",
        llmTemperature: "0.7",
        knowledgebaseId: null,
        knowledgebaseMode: "hybrid",
        tools: [],
      },
      history,
      passages: [],
      variables,
    });
    return reply;
  }

  private load(callId: number) {
    return this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: {
        accountId: true,
        assistantName: true,
        type: true,
        transcript: true,
        variables: true,
        assistant: { select: replyAssistantColumns },
      },
    });
  }
}
