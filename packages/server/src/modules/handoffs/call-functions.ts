import type { TransferDestination } from "../../generated/prisma/client.ts";
import type { RealtimeFunction } from "../message-pipeline/index.ts";

/** The function of phone transfers, as the model is offered it (docs/transfers.md#phone-transfers). */
export const TRANSFER_CALL_TOOL_NAME = "transfer_call";

export function transferCallDefinition(
  destinations: Pick<TransferDestination, "id" | "name" | "description">[],
): RealtimeFunction {
  const list = destinations
    .map((destination) => `- ${destination.id}: ${destination.name}. ${destination.description}`)
    .join("\n");
  return {
    type: "function",
    name: TRANSFER_CALL_TOOL_NAME,
    description: `Transfers this phone call to a person: you say one short handover sentence, then the caller is connected and you leave the call. If nobody answers, the caller comes back to you. Use it when the caller's request is for one of these:\n${list}`,
    parameters: {
      type: "object",
      properties: {
        destination_id: {
          type: "integer",
          enum: destinations.map((destination) => destination.id),
          description: "The destination to transfer to, from the list.",
        },
        reason: { type: "string", description: "Why, in a few words." },
      },
      required: ["destination_id"],
    },
  };
}
