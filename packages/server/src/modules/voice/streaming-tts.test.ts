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
import {
  answerOutbound,
  mediaStreamUrl,
  THREE_SENTENCES,
  voiceCallEnv,
} from "../../../test/support/voice-calls.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * Pipeline calls spoken through streaming text-to-speech (ElevenLabs by deployment, Cartesia by an
 * assistant's catalogue voice), over Twilio Media Streams, with OpenAI's batch speech as the fallback.
 */

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let elevenlabs: FakeElevenLabs;
let cartesia: FakeCartesia;
let owner: TestAccount;
let number: PhoneNumber;
let mediaUrl: string;

const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const marks = (received: TwilioMediaClient["received"]) => received.filter((m) => m.event === "mark").length;
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

async function answeredCall(assistant: Assistant) {
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  const token = await answerOutbound(t, twilio, call);
  return { call, client: await TwilioMediaClient.connect(mediaUrl, token) };
}

/** A promise and its resolve: the model goes on writing once released. */
function gate() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

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
  mediaUrl = mediaStreamUrl(t);
  owner = await t.createAccount({ balance: "50" });
  number = await telephonyFixtures(t).addNumber(owner);
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

describe("streaming text-to-speech in pipeline calls", () => {
  it("speaks the first sentence while the model is still writing (the deployment's ElevenLabs)", async () => {
    const assistant = await createAssistant(t, owner, { initialMessage: "", phoneNumberId: number.id });
    const { call, client } = await answeredCall(assistant);
    const synthesesBefore = speech.syntheses.length;
    const writing = gate();
    model.enqueue({ content: "First part here. Second part now.", holdAfterFirstSentence: writing.held });
    client.speak("hello");
    // The model holds the rest of its answer: the caller already hears its first sentence.
    await client.waitFor((received) => marks(received) >= 1);
    const first = client.takeAudio();
    expect(client.decode(first).replace(/\s+/g, "")).toBe(heard("First part here."));
    const context = elevenlabs.contexts.at(-1)!;
    expect(context.voiceId).toBe("el-default-voice");
    expect(context.messages.map((message) => message.text ?? "").join("")).not.toContain("Second");
    writing.release();
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toBe(
        "Customer: hello\nAssistant: First part here. Second part now.",
      ),
    );
    // The audio goes on where the first sentence's left off (frames are whole across sentences).
    const whole = new Int16Array([...first, ...client.takeAudio()]);
    expect(client.decode(whole).replace(/\s+/g, "")).toBe(heard("First part here. Second part now."));
    expect(context.messages.at(-1)).toEqual({ close_context: true, context_id: context.id });
    // Nothing went through batch speech.
    expect(speech.syntheses.length).toBe(synthesesBefore);
    client.close();
  });

  it("a barge-in cancels the assistant's Cartesia context and keeps what was played", async () => {
    const voice = await t.app.db.prisma.voice.create({
      data: {
        accountId: owner.accountId,
        name: "Sonic",
        gender: "female",
        provider: "cartesia",
        providerVoiceId: "cartesia-voice-1",
        supportedModes: ["pipeline"],
      },
    });
    const assistant = await createAssistant(t, owner, {
      initialMessage: "",
      phoneNumberId: number.id,
      interruptSensitivity: 1,
      voiceId: voice.id,
    });
    const { call, client } = await answeredCall(assistant);
    const contextsBefore = elevenlabs.contexts.length;
    const writing = gate();
    model.enqueue({ content: THREE_SENTENCES, holdAfterFirstSentence: writing.held });
    client.autoAckMarks = false;
    client.speak("hello");
    await client.waitFor((received) => marks(received) >= 1);
    client.ackMarks(1);
    client.autoAckMarks = true;
    client.speak("wait");
    await client.waitFor((received) => received.some((message) => message.event === "clear"));
    // The model writes on; what it writes after the barge-in is not spoken.
    writing.release();
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toBe(
        "Customer: hello\nAssistant: One two three.\nCustomer: wait\nAssistant: Echo: wait",
      ),
    );
    const [answer] = await t.app.db.prisma.callTurn.findMany({
      where: { callId: call.id, speaker: "assistant" },
      orderBy: { id: "asc" },
    });
    expect(answer).toMatchObject({ heardText: "One two three.", interrupted: true });
    const cancelled = cartesia.contexts.filter((context) => context.cancelled);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.inputs.map((input) => input.transcript ?? "cancel").join("")).toBe(
      "One two three. cancel",
    );
    expect(cancelled[0]!.inputs[0]).toMatchObject({
      voice: { mode: "id", id: "cartesia-voice-1" },
      // A phone call: Cartesia speaks the line's own 8 kHz mu-law.
      output_format: { container: "raw", encoding: "pcm_mulaw", sample_rate: 8000 },
    });
    // Only the interrupted answer's context was cancelled: the next answer spoke on the same socket.
    const callContexts = cartesia.contexts.filter(
      (context) => context.connection === cancelled[0]!.connection,
    );
    expect(callContexts.map((context) => [context.cancelled, context.done])).toEqual([
      [true, false],
      [false, true],
    ]);
    // The assistant's voice is Cartesia's: the deployment's ElevenLabs was not used.
    expect(elevenlabs.contexts.length).toBe(contextsBefore);
    client.close();
  });

  it("falls back to batch speech when the provider dies mid-answer, without dropping the call", async () => {
    const assistant = await createAssistant(t, owner, { initialMessage: "", phoneNumberId: number.id });
    const synthesesBefore = speech.syntheses.length;
    // The call's socket (opened as it starts) dies after its first audio.
    elevenlabs.dieAfterAudio(1);
    const { call, client } = await answeredCall(assistant);
    try {
      model.enqueue({ content: THREE_SENTENCES });
      client.speak("hello");
      await eventually(async () =>
        expect((await reload(call.id)).transcript).toBe(`Customer: hello\nAssistant: ${THREE_SENTENCES}`),
      );
    } finally {
      elevenlabs.dieAfterAudio(null);
    }
    // The first sentence came from ElevenLabs, the rest from `/audio/speech` with its default voice.
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard(THREE_SENTENCES));
    expect(speech.syntheses.slice(synthesesBefore)).toMatchObject([
      { input: "Four five six.", voice: "alloy" },
      { input: "Seven eight nine.", voice: "alloy" },
    ]);
    // The rest of the call speaks through the fallback.
    const contexts = elevenlabs.contexts.length;
    client.speak("again");
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toBe(
        `Customer: hello\nAssistant: ${THREE_SENTENCES}\nCustomer: again\nAssistant: Echo: again`,
      ),
    );
    expect(elevenlabs.contexts.length).toBe(contexts);
    expect((await reload(call.id)).status).toBe("in_progress");
    client.close();
  });

  it("holds one socket per call: connected as the call starts, every answer a context on it, closed at the end", async () => {
    const assistant = await createAssistant(t, owner, {
      initialMessage: "Hello caller.",
      phoneNumberId: number.id,
    });
    const connectionsBefore = elevenlabs.connections.length;
    const contextsBefore = elevenlabs.contexts.length;
    const synthesesBefore = speech.syntheses.length;
    const { call, client } = await answeredCall(assistant);
    await client.waitFor((received) => marks(received) >= 1);
    model.enqueue({ content: "First answer." });
    client.speak("hello");
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toContain("Assistant: First answer."),
    );
    model.enqueue({ content: "Second answer." });
    client.speak("again");
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toBe(
        "Assistant: Hello caller.\nCustomer: hello\nAssistant: First answer.\nCustomer: again\nAssistant: Second answer.",
      ),
    );
    // One upgrade for the greeting and both answers, asked for the phone line's mu-law.
    expect(elevenlabs.connections.length).toBe(connectionsBefore + 1);
    expect(elevenlabs.connections.at(-1)!.query.get("output_format")).toBe("ulaw_8000");
    const contexts = elevenlabs.contexts.slice(contextsBefore);
    expect(contexts).toHaveLength(3);
    expect(new Set(contexts.map((context) => context.connection)).size).toBe(1);
    // The provider's bytes reached the carrier as they were sent: nothing was resampled.
    expect(client.takeBytes().equals(Buffer.concat(contexts.flatMap((context) => context.audio)))).toBe(true);
    expect(speech.syntheses.length).toBe(synthesesBefore);
    client.close();
    await expect.poll(() => elevenlabs.openConnections).toBe(0);
  });

  it("connects again when the provider closed the call's socket between answers", async () => {
    const assistant = await createAssistant(t, owner, { initialMessage: "", phoneNumberId: number.id });
    const connectionsBefore = elevenlabs.connections.length;
    const synthesesBefore = speech.syntheses.length;
    const { call, client } = await answeredCall(assistant);
    model.enqueue({ content: "First answer." });
    client.speak("hello");
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toContain("Assistant: First answer."),
    );
    elevenlabs.dropConnections();
    await expect.poll(() => elevenlabs.openConnections).toBe(0);
    client.takeSpeech();
    model.enqueue({ content: "Second answer." });
    client.speak("again");
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toContain("Assistant: Second answer."),
    );
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Second answer."));
    expect(elevenlabs.connections.length).toBe(connectionsBefore + 2);
    // Both answers were the provider's: the dropped socket was no failure.
    expect(speech.syntheses.length).toBe(synthesesBefore);
    client.close();
  });
});
