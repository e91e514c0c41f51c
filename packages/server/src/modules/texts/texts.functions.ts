import { type FunctionSet, refused, runBuiltin } from "../message-pipeline/index.ts";

/** The function that texts the customer of a conversation or call. */
export const SEND_SMS_TOOL_NAME = "send_sms";

/**
 * `send_sms`: a text to the conversation's customer (the recipient is fixed by the conversation,
 * never chosen by the model), charged and sent as any text. An expected refusal (opted out,
 * balance, carrier) is an AppError whose message the model is told.
 */
export function textingFunctionSet(
  sendText: (body: string) => Promise<{ textId: number; segments: number; status: string }>,
): FunctionSet {
  return {
    definitions: () => [
      {
        type: "function",
        name: SEND_SMS_TOOL_NAME,
        description:
          "Sends a text message (SMS) to the customer's phone, e.g. to confirm a booking with its details. Keep it short.",
        parameters: {
          type: "object",
          properties: { body: { type: "string", description: "The text to send, at most 1600 characters." } },
          required: ["body"],
        },
      },
    ],
    run: async (name, args) => {
      if (name !== SEND_SMS_TOOL_NAME) return undefined;
      const body = typeof args.body === "string" ? args.body.trim() : "";
      if (!body) return refused(name, "body must be the text to send.", args);
      return runBuiltin(name, args, () => sendText(body));
    },
  };
}
