import type { RealtimeFunction } from "../message-pipeline/index.ts";

/** The functions of chat hand-offs, as the model is offered them (docs/transfers.md#chat-hand-offs). */
export const REQUEST_HUMAN_TOOL_NAME = "request_human";
export const HANDOFF_TOOL_NAME = "handoff";

/** An assistant a chat may be handed to, with what the model reads to choose it. */
export interface HandoffTargetView {
  assistantId: number;
  name: string;
  description: string;
}

export function requestHumanDefinition(): RealtimeFunction {
  return {
    type: "function",
    name: REQUEST_HUMAN_TOOL_NAME,
    description:
      "Asks a person of the business to take over this conversation. Use it when the customer asks for a human or you cannot help. The result says what to tell the customer (tell_customer), including when someone will answer.",
    parameters: {
      type: "object",
      properties: {
        reason: { type: "string", description: "Why a person is needed, in a few words, for the team." },
      },
    },
  };
}

/** `from`: when the target starts answering, in the model's words (a chat's next message, a call's next turn). */
export function handoffDefinition(
  targets: HandoffTargetView[],
  from = "the customer's next message",
): RealtimeFunction {
  const list = targets
    .map((target) => `- ${target.assistantId}: ${target.name}. ${target.description}`)
    .join("\n");
  return {
    type: "function",
    name: HANDOFF_TOOL_NAME,
    description: `Hands this conversation to another assistant of the business, who answers from ${from} with the whole conversation so far. Use it when the customer's request is theirs:\n${list}`,
    parameters: {
      type: "object",
      properties: {
        assistant_id: {
          type: "integer",
          enum: targets.map((target) => target.assistantId),
          description: "The assistant to hand to, from the list.",
        },
        reason: { type: "string", description: "Why, in a few words." },
      },
      required: ["assistant_id"],
    },
  };
}
