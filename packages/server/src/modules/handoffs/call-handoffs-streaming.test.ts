import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeCartesia, startFakeCartesia } from "../../../test/support/fake-cartesia.ts";
import { type FakeElevenLabs, startFakeElevenLabs } from "../../../test/support/fake-elevenlabs.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech, toneText } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import { answerOutbound, mediaStreamUrl, voiceCallEnv } from "../../../test/support/voice-calls.ts";

/**
 * A live-call hand-off between assistants whose voices are different streaming providers': the
 * call's Cartesia socket is closed and the new assistant's ElevenLabs voice speaks from the next
 * turn, on the same media stream.
 */

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let elevenlabs: FakeElevenLabs;
let cartesia: FakeCartesia;
let owner: TestAccount;

const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

beforeAll(async () => {
  [twilio, model, speech, elevenlabs, cartesia] = await Promise.all([
    startFakeTwilio(),
    startFakeOpenAI(),
    startFakeSpeech(),
    startFakeElevenLabs(),
    startFakeCartesia(),
  ]);
  t = await startTestApp({
    model,
    env: {
      ...voiceCallEnv(twilio, speech),
      VOXGATE_TTS_PROVIDER: "elevenlabs",
      ELEVENLABS_BASE_URL: elevenlabs.baseUrl,
      ELEVENLABS_API_KEY: elevenlabs.apiKey,
      ELEVENLABS_VOICE_ID: "el-default-voice",
      CARTESIA_BASE_URL: cartesia.baseUrl,
      CARTESIA_API_KEY: cartesia.apiKey,
    },
  });
  owner = await t.createAccount({ balance: "50" });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([
    twilio?.close(),
    model?.close(),
    speech?.close(),
    elevenlabs?.close(),
    cartesia?.close(),
  ]);
});

async function voice(provider: string, providerVoiceId: string) {
  return t.app.db.prisma.voice.create({
    data: {
      accountId: owner.accountId,
      name: providerVoiceId,
      gender: "female",
      provider,
      providerVoiceId,
      supportedModes: ["pipeline"],
    },
  });
}

describe("handoff between streaming voices", () => {
  it("closes the call's Cartesia socket and speaks with the new assistant's ElevenLabs voice from the next turn", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    const reception = await createAssistant(t, owner, {
      name: "Reception",
      systemPrompt: "You are Reception.",
      initialMessage: "",
      phoneNumberId: number.id,
      voiceId: (await voice("cartesia", "cartesia-reception")).id,
    });
    const spanish = await createAssistant(t, owner, {
      name: "Spanish",
      systemPrompt: "You are Spanish.",
      phoneNumberId: number.id,
      voiceId: (await voice("elevenlabs", "el-spanish")).id,
    });
    await t.app.services.chatHandoffs.setSettings(owner.accountId, {
      assistantId: reception.id,
      targets: [{ assistantId: spanish.id, description: "Speaks Spanish." }],
    });
    const placed = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: reception.id,
      to: uniqueUsNumber(),
    });
    const client = await TwilioMediaClient.connect(
      mediaStreamUrl(t),
      await answerOutbound(t, twilio, placed),
    );
    const cartesiaBefore = cartesia.contexts.length;
    const elevenlabsBefore = elevenlabs.connections.length;
    model.enqueue(
      { toolCalls: [{ name: "handoff", arguments: { assistant_id: spanish.id } }] },
      { content: "One moment." },
      { content: "Hola, dime." },
    );
    client.speak("hablas español");
    await eventually(async () =>
      expect((await reload(placed.id)).transcript).toContain(
        "System: Handed over from Reception to Spanish.",
      ),
    );
    // The handover sentence was Cartesia's, in Reception's voice; then its socket closed.
    expect(cartesia.contexts.slice(cartesiaBefore)).toHaveLength(1);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("One moment."));
    await expect.poll(() => cartesia.openConnections).toBe(0);

    client.speak("quiero una cita");
    await eventually(async () =>
      expect((await reload(placed.id)).transcript).toContain("Assistant: Hola, dime."),
    );
    expect(model.chatRequests.at(-1)!.messages[0]!.content).toContain("You are Spanish.");
    expect(elevenlabs.connections.slice(elevenlabsBefore)).toEqual([
      expect.objectContaining({ voiceId: "el-spanish" }),
    ]);
    expect(elevenlabs.connections.at(-1)!.query.get("output_format")).toBe("ulaw_8000");
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Hola, dime."));
    expect(cartesia.contexts.length).toBe(cartesiaBefore + 1);
    client.close();
    await expect.poll(() => elevenlabs.openConnections).toBe(0);
  });
});
