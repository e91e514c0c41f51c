import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../../test/support/fake-openai.ts";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.ts";
import type { Call } from "../../../generated/prisma/client.ts";
import { parseTranscript } from "../transcript.ts";

let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ model: fake, env: { VOXGATE_CALL_CLOCK_SPEED: "20" } });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("the simulated callee with a model configured", () => {
  it("is an LLM persona talking with the assistant through the reply engine; the talk is the transcript", async () => {
    fake.respondWith((request) => {
      const persona = request.messages[0]?.content?.includes("just answered a phone call") ?? false;
      const turn = request.messages.filter((message) => message.role === "assistant").length;
      return { content: persona ? `Persona line ${turn}` : `Assistant line ${turn}` };
    });
    const owner = await t.createAccount({ balance: "10" });
    const number = await telephonyFixtures(t).addNumber(owner);
    const assistant = await createAssistant(t, owner, {
      phoneNumberId: number.id,
      systemPrompt: "You sell solar panels.",
    });
    const finished = new Promise<Call>((resolve) =>
      t.app.services.calls.onCallFinished(async (call) => resolve(call)),
    );
    await t.app.services.calls.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: "+14155550100",
    });
    const call = await finished;
    expect(call.status).toBe("completed");
    const lines = parseTranscript(call.transcript);
    expect(lines[0]).toEqual({ speaker: "assistant", text: "Hello! How can I help?" });
    expect(lines.slice(1).map((line) => line.speaker)).toEqual([
      "customer",
      "assistant",
      "customer",
      "assistant",
      "customer",
    ]);
    expect(
      lines
        .filter((line) => line.speaker === "customer")
        .every((line) => line.text.startsWith("Persona line")),
    ).toBe(true);
    expect(
      lines
        .filter((line) => line.speaker === "assistant")
        .slice(1)
        .every((line) => line.text.startsWith("Assistant line")),
    ).toBe(true);
    // The assistant's replies used its own prompt; the persona's did not see it.
    const assistantRequests = fake.chatRequests.filter(
      (request) => !request.messages[0]?.content?.includes("just answered a phone call"),
    );
    expect(assistantRequests).toHaveLength(2);
    expect(assistantRequests[0]!.messages[0]!.content).toContain("You sell solar panels.");
    // The persona hears the assistant's opening as what was said to it.
    const firstPersona = fake.chatRequests.find((request) =>
      request.messages[0]?.content?.includes("just answered a phone call"),
    )!;
    expect(firstPersona.messages.at(-1)).toMatchObject({ role: "user", content: "Hello! How can I help?" });
  });
});
