import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import type { TestScenario } from "../../generated/prisma/client.ts";
import { isUuid } from "../common/uuid.ts";
import { parseTranscript } from "../telephony/index.ts";
import type { RecordedScenario, ScenariosService } from "./scenarios.service.ts";

/** A line of recorded traffic, from either side. */
interface RecordedLine {
  /** Other speakers (a call's system notes) are neither the customer's script nor an answer. */
  speaker: "customer" | "assistant" | "system";
  text: string;
}

/**
 * Scenarios from real traffic: a call's or conversation's customer lines become a script, and what
 * the assistant answered to each becomes the expected reply a replay is compared with. Lines the
 * assistant said before the customer's first (a call's greeting) answer nothing and are left out;
 * several assistant lines in a row (an answer and a follow-up) count as one answer.
 */
export class TrafficReplays {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly scenarios: ScenariosService,
  ) {}

  async fromCall(accountId: number, callId: number): Promise<TestScenario> {
    const call = await this.deps.db.prisma.call.findFirst({
      where: { id: callId, accountId },
      select: { id: true, assistantId: true, transcript: true },
    });
    if (!call) throw new NotFoundError("Call");
    if (call.assistantId === null)
      throw ValidationError.single("callId", "The call has no assistant to test.");
    return this.create(accountId, {
      assistantId: call.assistantId,
      name: `Replay of call ${call.id}`,
      sourceCallId: call.id,
      ...scriptOf(parseTranscript(call.transcript), "callId"),
    });
  }

  async fromConversation(accountId: number, conversationId: string): Promise<TestScenario> {
    const conversation = isUuid(conversationId)
      ? await this.deps.db.prisma.conversation.findFirst({
          where: { id: conversationId, accountId },
          select: { id: true, assistantId: true },
        })
      : null;
    if (!conversation) throw new NotFoundError("Conversation", "CONVERSATION_NOT_FOUND");
    const messages = await this.deps.db.prisma.message.findMany({
      where: { conversationId, role: { in: ["user", "assistant", "operator"] } },
      orderBy: { id: "asc" },
      take: 200,
      select: { role: true, content: true },
    });
    return this.create(accountId, {
      assistantId: conversation.assistantId,
      name: `Replay of conversation ${conversation.id}`,
      sourceConversationId: conversation.id,
      ...scriptOf(
        messages.map((message) => ({
          speaker: message.role === "user" ? "customer" : "assistant",
          text: message.content,
        })),
        "conversationId",
      ),
    });
  }

  private create(accountId: number, recorded: RecordedScenario): Promise<TestScenario> {
    return this.scenarios.createRecorded(accountId, recorded);
  }
}

/** The customer's lines, and the assistant's answer to each (empty when it did not answer). */
export function scriptOf(
  lines: readonly RecordedLine[],
  field: string,
): { lines: string[]; expectedReplies: string[] } {
  const script: string[] = [];
  const answers: string[][] = [];
  for (const line of lines) {
    if (line.speaker === "customer") {
      script.push(line.text);
      answers.push([]);
    } else if (line.speaker === "assistant" && answers.length > 0) answers.at(-1)!.push(line.text);
  }
  if (script.length === 0)
    throw ValidationError.single(field, "The traffic has no customer lines to replay.");
  return { lines: script, expectedReplies: answers.map((parts) => parts.join(" ")) };
}
