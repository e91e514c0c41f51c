import { builder } from "../../builder.ts";
import { AtCapacityError } from "../../errors.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";
import { callerOf } from "../widget/widget.schema.ts";
import type { WebCallStart } from "./web-calls.service.ts";

const WidgetWebCall = builder.objectRef<WebCallStart>("WidgetWebCall").implement({
  description:
    "A web call a website visitor started: open a WebSocket on `socketPath` with `?token=` within the token's life to talk (docs/voice.md#web-calls).",
  fields: (t) => ({
    callId: t.exposeInt("callId"),
    token: t.exposeString("token", { description: "Single use; refused once used or expired." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    socketPath: t.exposeString("socketPath"),
    sampleRate: t.exposeInt("sampleRate", {
      description: "Samples per second of the PCM16 mono little-endian audio, both ways.",
    }),
  }),
});

const StartWidgetWebCallInput = builder.inputType("StartWidgetWebCallInput", {
  fields: (t) => ({ assistantUuid: t.string({ required: true }) }),
});

builder.mutationField("startWidgetWebCall", (t) =>
  t.field({
    type: WidgetWebCall,
    description:
      "Public: starts a web call with an assistant whose widget settings enable voice (FORBIDDEN otherwise, or from an origin the assistant does not allow). Reserves the first call minute from the owner's balance (INSUFFICIENT_BALANCE); AT_CAPACITY (with Retry-After) when this server carries all the calls it may; UPSTREAM_FAILED, with the service named, when a speech service the call would hear or speak through cannot be reached (no call is recorded, nothing is charged); limited per client IP.",
    args: { input: t.arg({ type: StartWidgetWebCallInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      try {
        return await context.services.webCalls.start(
          { assistantUuid: input.assistantUuid },
          callerOf(context),
          rateLimitHeaderWriter(context.responseHeaders),
        );
      } catch (error) {
        if (error instanceof AtCapacityError)
          context.responseHeaders.set("Retry-After", String(error.extensions.retryAfter));
        throw error;
      }
    },
  }),
);
