import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type RealtimePhoneApp, startRealtimePhoneApp } from "../../../test/fixtures/realtime-phone-app.ts";
import { uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import type { FakeRealtime } from "../../../test/support/fake-realtime.ts";
import type { FakeSpeech } from "../../../test/support/fake-speech.ts";
import type { FakeTwilio } from "../../../test/support/fake-twilio.ts";
import type { TestAccount, TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import { answerOutbound, mediaStreamUrl } from "../../../test/support/voice-calls.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * `handoff` on multimodal and dualplex calls: the new assistant's instructions and functions reach
 * the same realtime session (`session.update`) before the model answers the function's result; a
 * dualplex call's voice (our text-to-speech) changes too, a multimodal model's stays its own.
 */

let phone: RealtimePhoneApp;
let t: TestApp;
let twilio: FakeTwilio;
let realtime: FakeRealtime;
let speech: FakeSpeech;
let owner: TestAccount;
let number: PhoneNumber;

const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 20 });
const sent = (index: number, type: string) =>
  realtime.sessions[index]!.received.filter((event) => event.type === type);

beforeAll(async () => {
  phone = await startRealtimePhoneApp();
  ({ t, twilio, speech, realtime, owner, number } = phone);
});

afterAll(() => phone?.close());

async function pair(mode: "multimodal" | "dualplex") {
  const voice = await t.app.db.prisma.voice.create({
    data: {
      accountId: owner.accountId,
      name: `Nova ${mode}`,
      gender: "female",
      providerVoiceId: "nova",
      supportedModes: [mode],
    },
  });
  const reception = await createAssistant(t, owner, {
    name: "Reception",
    mode,
    systemPrompt: "You are Reception.",
    initialMessage: "",
    phoneNumberId: number.id,
  });
  const bookings = await createAssistant(t, owner, {
    name: "Bookings",
    mode,
    systemPrompt: "You are Bookings.",
    phoneNumberId: number.id,
    voiceId: voice.id,
  });
  await t.app.services.chatHandoffs.setSettings(owner.accountId, {
    assistantId: reception.id,
    targets: [{ assistantId: bookings.id, description: "Books appointments." }],
  });
  return { reception, bookings };
}

async function answeredCall(assistant: Assistant) {
  const placed = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  const model = realtime.sessions.length;
  const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, placed));
  await eventually(() => expect(realtime.sessions[model]?.received[0]?.type).toBe("session.update"));
  return { placed, client, model };
}

describe("handoff on realtime calls", () => {
  for (const mode of ["multimodal", "dualplex"] as const) {
    it(`${mode}: the new assistant's instructions and tools reach the same session before the handover sentence`, async () => {
      const { reception, bookings } = await pair(mode);
      const { placed, client, model } = await answeredCall(reception);
      const first = sent(model, "session.update")[0]!.session as { tools: { name: string }[] };
      expect(first.tools.map((tool) => tool.name)).toContain("handoff");
      realtime.enqueue(
        { functionCall: { name: "handoff", arguments: { assistant_id: bookings.id, reason: "booking" } } },
        { text: "Bookings here, how can I help?" },
      );
      client.speak("i want to book");
      await eventually(async () =>
        expect((await reload(placed.id)).transcript).toContain("Assistant: Bookings here, how can I help?"),
      );
      const call = await reload(placed.id);
      expect(call).toMatchObject({ assistantId: reception.id, activeAssistantId: bookings.id });
      expect(call.transcript).toContain("System: Handed over from Reception to Bookings (booking).");

      // One session throughout: the new instructions and functions were sent before the result.
      expect(realtime.sessions.length).toBe(model + 1);
      const events = realtime.sessions[model]!.received;
      const update = events.findLastIndex((event) => event.type === "session.update");
      const output = events.findIndex(
        (event) =>
          event.type === "conversation.item.create" &&
          (event.item as { type: string }).type === "function_call_output",
      );
      expect(update).toBeLessThan(output);
      const session = events[update]!.session as {
        instructions: string;
        tools: { name: string }[];
        audio?: unknown;
      };
      expect(session.instructions).toContain("You are Bookings.");
      expect(session.instructions).not.toContain("You are Reception.");
      // Bookings lists no targets: no handoff for it; the voice is not in the update.
      expect(session.tools.map((tool) => tool.name)).not.toContain("handoff");
      expect(session.audio).toBeUndefined();
      expect(JSON.parse((events[output]!.item as { output: string }).output)).toMatchObject({
        result: { handed_off: true, to: { assistant_id: bookings.id, name: "Bookings" } },
      });
      // Dualplex speaks the model's text with our voice: the new assistant's from the handover on.
      if (mode === "dualplex")
        expect(speech.syntheses.at(-1)).toMatchObject({
          input: "Bookings here, how can I help?",
          voice: "nova",
        });
      client.close();
    });
  }
});
