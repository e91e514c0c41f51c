import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import {
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Call } from "../../generated/prisma/client.ts";

/**
 * `handoff` on a simulated call (the embedded carrier's text turns through the voice engine): an
 * LLM persona talks with Reception, which hands the call to Bookings; Bookings answers the rest.
 */

let t: TestApp;
let fake: FakeOpenAI;
let owner: TestAccount;
let phoneNumberId: number;
const finished = new Map<number, (call: Call) => void>();

const persona = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.includes("just answered a phone call") ?? false;
const systemPrompt = (request: RecordedChatRequest) => request.messages[0]?.content ?? "";

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ model: fake, env: { VOXGATE_CALL_CLOCK_SPEED: "20" } });
  t.app.services.bus.on("call.finished", async ({ call: ended }) => finished.get(ended.id)?.(ended));
  owner = await t.createAccount({ balance: "10" });
  phoneNumberId = (await telephonyFixtures(t).addNumber(owner)).id;
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("handoff on a simulated call", () => {
  it("the assistant handed to answers the callee's next turns, with the transcript so far", async () => {
    const reception = await createAssistant(t, owner, {
      name: "Reception",
      systemPrompt: "You are Reception.",
      phoneNumberId,
    });
    const bookings = await createAssistant(t, owner, {
      name: "Bookings",
      systemPrompt: "You are Bookings.",
      phoneNumberId,
    });
    await t.app.services.chatHandoffs.setSettings(owner.accountId, {
      assistantId: reception.id,
      targets: [{ assistantId: bookings.id, description: "Books appointments." }],
    });
    fake.respondWith((request) => {
      const turn = request.messages.filter((message) => message.role === "assistant").length;
      if (persona(request)) return { content: `Persona line ${turn}` };
      if (systemPrompt(request).includes("You are Bookings."))
        return { content: `Bookings line ${turn}, after ${request.messages[1]?.content ?? "nothing"}` };
      const handedOff = request.messages.some((message) => message.role === "tool");
      return handedOff
        ? { content: "Bookings takes over now." }
        : { toolCalls: [{ name: "handoff", arguments: { assistant_id: bookings.id } }] };
    });
    const placed = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: reception.id,
      to: "+14155550100",
    });
    const ended = await new Promise<Call>((resolve) => finished.set(placed.id, resolve));
    expect(ended).toMatchObject({
      status: "ended_by_customer",
      assistantId: reception.id,
      activeAssistantId: bookings.id,
      handoffTrail: [reception.id],
    });
    const lines = ended.transcript.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "Assistant: Hello! How can I help?",
      "Customer: Persona line 0",
      "Assistant: Bookings takes over now.",
      "System: Handed over from Reception to Bookings.",
    ]);
    // Bookings answered every later turn, with the call's conversation from its start.
    const later = lines.slice(4).filter((line) => line.startsWith("Assistant: "));
    expect(later.length).toBeGreaterThan(0);
    for (const line of later)
      expect(line).toMatch(/^Assistant: Bookings line \d+, after Hello! How can I help\?$/);
  });
});
