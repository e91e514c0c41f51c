import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeDeepgram, startFakeDeepgram } from "../../../test/support/fake-deepgram.ts";
import { type FakeElevenLabs, startFakeElevenLabs } from "../../../test/support/fake-elevenlabs.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { type FakeRealtime, startFakeRealtime } from "../../../test/support/fake-realtime.ts";
import { type FakeSpeech, startFakeSpeech, toneText } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import { answerOutbound, mediaStreamUrl, voiceCallEnv } from "../../../test/support/voice-calls.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * Calls speak and listen through what their assistant selected from the catalogue, with the
 * account's own keys on the wire: the deployment transcribes in batch and has no ElevenLabs key, but
 * configures Deepgram. An unusable selection falls back to the deployment's default.
 */

const DEPLOYMENT_DEEPGRAM_KEY = "deployment-dg-key";
const ALICE_DEEPGRAM_KEY = "alice-dg-key-7777";
const ALICE_ELEVENLABS_KEY = "alice-el-key-8888";
const CAROL_OPENAI_KEY = "sk-carol-openai-9999";
const DEPLOYMENT_REALTIME_KEY = "sk-deployment-realtime";
const DEEPGRAM = 2;
const ELEVENLABS = 5;
const GPT_4O = 2;

const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const marks = (received: TwilioMediaClient["received"]) => received.filter((m) => m.event === "mark").length;
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let deepgram: FakeDeepgram;
let elevenlabs: FakeElevenLabs;
let realtime: FakeRealtime;
const numbers = new Map<number, PhoneNumber>();
/** The app's warnings, with their fields. */
const warnings: { message: string; fields: Record<string, unknown> | undefined }[] = [];
const silent = () => {};
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  // This ElevenLabs accepts Alice's key only: a stream it serves carried her key.
  [twilio, model, speech, deepgram, elevenlabs, realtime] = await Promise.all([
    startFakeTwilio(),
    startFakeOpenAI(),
    startFakeSpeech(),
    startFakeDeepgram(),
    startFakeElevenLabs(ALICE_ELEVENLABS_KEY),
    startFakeRealtime(),
  ]);
  t = await startTestApp({
    model,
    logger: {
      debug: silent,
      info: silent,
      warn: (message, fields) => warnings.push({ message, fields }),
      error: silent,
    },
    env: {
      ...voiceCallEnv(twilio, speech),
      VOXGATE_DEEPGRAM_URL: deepgram.url,
      VOXGATE_DEEPGRAM_API_KEY: DEPLOYMENT_DEEPGRAM_KEY,
      ELEVENLABS_BASE_URL: elevenlabs.baseUrl,
      ELEVENLABS_VOICE_ID: "el-voice",
      OPENAI_REALTIME_BASE_URL: realtime.baseUrl,
      OPENAI_REALTIME_API_KEY: DEPLOYMENT_REALTIME_KEY,
    },
  });
  [alice, bob] = await Promise.all([t.createAccount({ balance: "50" }), t.createAccount({ balance: "50" })]);
  for (const account of [alice, bob])
    numbers.set(account.accountId, await telephonyFixtures(t).addNumber(account));
  for (const [provider, key] of [
    ["deepgram", ALICE_DEEPGRAM_KEY],
    ["elevenlabs", ALICE_ELEVENLABS_KEY],
  ]) {
    const set = await t.gql(
      `mutation($provider: ProviderKeyName!, $key: String!) { setProviderKey(provider: $provider, key: $key) { lastFour } }`,
      { provider, key },
      { token: alice.apiKey },
    );
    expect(set.errors).toBeUndefined();
  }
});

afterAll(async () => {
  await t?.close();
  await Promise.all([
    twilio?.close(),
    model?.close(),
    speech?.close(),
    deepgram?.close(),
    elevenlabs?.close(),
    realtime?.close(),
  ]);
});

async function assistantOf(owner: TestAccount, input: Record<string, unknown>) {
  return createAssistant(t, owner, {
    initialMessage: "",
    phoneNumberId: numbers.get(owner.accountId)!.id,
    ...input,
  });
}

/** A call of the assistant that hears "hello" and answers; what it said, once it said it. */
async function converse(owner: TestAccount, assistant: Assistant) {
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
  client.speak("hello");
  await client.waitFor((received) => marks(received) >= 1);
  await eventually(async () =>
    expect((await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } })).transcript).toBe(
      "Customer: hello\nAssistant: Echo: hello",
    ),
  );
  const said = client.takeSpeech().replace(/\s+/g, "");
  client.close();
  return said;
}

describe("a call's providers", () => {
  it("follow the assistant's selection, connecting with the account's own keys", async () => {
    const assistant = await assistantOf(alice, {
      transcriberProviderId: DEEPGRAM,
      synthesizerProviderId: ELEVENLABS,
      llmModelId: GPT_4O,
    });
    const streams = deepgram.streams.length;
    const transcriptions = speech.transcriptions.length;
    const syntheses = speech.syntheses.length;
    const chats = model.chatRequests.length;

    expect(await converse(alice, assistant)).toBe(heard("Echo: hello"));
    // Deepgram heard the caller with Alice's key; the batch endpoint heard nothing.
    expect(deepgram.streams.slice(streams).map((stream) => stream.headers.authorization)).toEqual([
      `Token ${ALICE_DEEPGRAM_KEY}`,
    ]);
    expect(speech.transcriptions.length).toBe(transcriptions);
    // ElevenLabs (which takes her key only) spoke the answer with the deployment's default voice.
    expect(elevenlabs.connections.at(-1)).toMatchObject({ voiceId: "el-voice" });
    expect(speech.syntheses.length).toBe(syntheses);
    // The reply came from the selected chat model.
    expect(model.chatRequests.slice(chats).map((request) => request.model)).toEqual(["gpt-4o"]);
  });

  it("use the deployment's keys for another account, and its default where a selection is not usable", async () => {
    // Bob has no keys: Deepgram is configured by the deployment, ElevenLabs is not (batch speech speaks).
    const assistant = await assistantOf(bob, {
      transcriberProviderId: DEEPGRAM,
      synthesizerProviderId: ELEVENLABS,
    });
    const streams = deepgram.streams.length;
    const elevenlabsStreams = elevenlabs.connections.length;
    const syntheses = speech.syntheses.length;
    const chats = model.chatRequests.length;

    expect(await converse(bob, assistant)).toBe(heard("Echo: hello"));
    expect(deepgram.streams.slice(streams).map((stream) => stream.headers.authorization)).toEqual([
      `Token ${DEPLOYMENT_DEEPGRAM_KEY}`,
    ]);
    expect(elevenlabs.connections.length).toBe(elevenlabsStreams);
    expect(warnings).toContainEqual({
      message: "the assistant's selected provider is not configured; the deployment's default is used",
      fields: { accountId: bob.accountId, kind: "synthesizer", provider: "elevenlabs" },
    });
    expect(speech.syntheses.slice(syntheses).map((synthesis) => synthesis.input)).toEqual(["Echo: hello"]);
    expect(model.chatRequests.slice(chats).map((request) => request.model)).toEqual([
      t.app.config.openai.model,
    ]);
  });

  it("are the deployment's when the assistant selects nothing, even for an account with keys", async () => {
    const assistant = await assistantOf(alice, {});
    const streams = deepgram.streams.length;
    const transcriptions = speech.transcriptions.length;
    const syntheses = speech.syntheses.length;

    expect(await converse(alice, assistant)).toBe(heard("Echo: hello"));
    // VOXGATE_STT_PROVIDER and VOXGATE_TTS_PROVIDER are openai here: batch both ways.
    expect(deepgram.streams.length).toBe(streams);
    expect(speech.transcriptions.length).toBe(transcriptions + 1);
    expect(speech.syntheses.length).toBe(syntheses + 1);
  });
});

describe("a realtime call's model", () => {
  /** The realtime session a multimodal call of the assistant opens. */
  async function realtimeSessionOf(owner: TestAccount, assistant: Assistant) {
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: uniqueUsNumber(),
    });
    const sessions = realtime.sessions.length;
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
    await eventually(() => expect(realtime.sessions[sessions]?.received[0]?.type).toBe("session.update"));
    client.close();
    return realtime.sessions[sessions]!;
  }

  it("is the selected multimodal model, reached with the account's OpenAI key; else the deployment's", async () => {
    const carol = await t.createAccount({ balance: "50" });
    numbers.set(carol.accountId, await telephonyFixtures(t).addNumber(carol));
    await t.gql(
      `mutation($key: String!) { setProviderKey(provider: openai, key: $key) { lastFour } }`,
      { key: CAROL_OPENAI_KEY },
      { token: carol.apiKey },
    );
    const selected = await realtimeSessionOf(
      carol,
      await assistantOf(carol, { mode: "multimodal", multimodalModelId: 7 }),
    );
    expect(selected.model).toBe("gpt-4o-realtime-preview");
    expect(selected.headers.authorization).toBe(`Bearer ${CAROL_OPENAI_KEY}`);

    const deployment = await realtimeSessionOf(bob, await assistantOf(bob, { mode: "multimodal" }));
    expect(deployment.model).toBe(t.app.config.voice.realtime.model);
    expect(deployment.headers.authorization).toBe(`Bearer ${DEPLOYMENT_REALTIME_KEY}`);
  });
});
