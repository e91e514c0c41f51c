import type { ServiceDeps } from "../../../deps.ts";
import type { ReplyEngine } from "../../message-pipeline/index.ts";
import { replyAssistantColumns } from "../../message-pipeline/index.ts";
import { parseTranscript } from "../transcript.ts";

/** What a scripted callee says, one line per turn; the last one ends the call. */
export const SCRIPTED_CALLEE_LINES = [
  "Hi, yes, I'm listening. What is this about?",
  "I see. Could you tell me a little more?",
  "Alright, thank you. Goodbye.",
] as const;

const STAYING_ON_LINE = "Go on, I'm listening.";

const VOICEMAIL_GREETING = "Hi, you've reached my voicemail. Please leave a message after the beep.";

const PERSONA_PROMPT = [
  "You are a person who just answered a phone call from a company's AI assistant.",
  "Answer briefly and naturally, in one or two short sentences, as a slightly busy but polite person.",
  "Never say you are an AI. When told this is your last reply, say goodbye.",
].join(" ");

type Primitive = string | number | boolean | null;

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

  async hangsUpOnVoicemail(callId: number): Promise<boolean> {
    const call = await this.load(callId);
    return call?.assistant?.endCallOnVoicemail ?? false;
  }

  /** What the assistant says first when a person answers. */
  async assistantOpening(callId: number): Promise<string> {
    const call = await this.load(callId);
    const name = call?.assistant?.name ?? call?.assistantName ?? "the assistant";
    return call?.assistant?.initialMessage.trim() || `Hello, this is ${name}. Do you have a minute?`;
  }

  async voicemailMessage(callId: number): Promise<string> {
    const opening = await this.assistantOpening(callId);
    return `${opening} Sorry we missed you; we will call you back.`;
  }

  /**
   * Turn `turn` (from 1): the callee speaks, then the assistant answers unless the callee hung up.
   * A callee who `staysOn` never hangs up: the call goes on until Voxgate ends it.
   */
  async exchange(
    callId: number,
    turn: number,
    staysOn = false,
  ): Promise<{ customer: string; assistant: string | null; finished: boolean }> {
    const call = await this.load(callId);
    const finished = !staysOn && turn >= SCRIPTED_CALLEE_LINES.length;
    if (!call?.assistant) return { customer: SCRIPTED_CALLEE_LINES.at(-1)!, assistant: null, finished: true };
    const lines = parseTranscript(call.transcript);
    const variables = primitives(call.variables);
    const customer = this.engine.modelConfigured
      ? await this.personaLine(call.accountId, lines, variables, finished)
      : staysOn
        ? STAYING_ON_LINE
        : SCRIPTED_CALLEE_LINES[Math.min(turn, SCRIPTED_CALLEE_LINES.length) - 1]!;
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
    lines: { speaker: "assistant" | "customer"; text: string }[],
    variables: Record<string, Primitive>,
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
        systemPrompt: PERSONA_PROMPT,
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
        transcript: true,
        variables: true,
        assistant: { select: { ...replyAssistantColumns, endCallOnVoicemail: true } },
      },
    });
  }
}

function primitives(value: unknown): Record<string, Primitive> {
  const result: Record<string, Primitive> = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return result;
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null || ["string", "number", "boolean"].includes(typeof entry)) {
      result[key] = entry as Primitive;
    }
  }
  return result;
}
