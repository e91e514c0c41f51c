import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import {
  type FakeSpeech,
  spokenParts,
  startFakeSpeech,
  synthesizeTones,
  toneText,
} from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import {
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import { answerOutbound, callCompleted, mediaStreamUrl } from "../../../test/support/voice-calls.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import { muLawToPcm } from "../media/index.ts";

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let receiver: WebhookReceiver;
let owner: TestAccount;
let secret: string;

beforeAll(async () => {
  [twilio, model, speech, receiver] = await Promise.all([
    startFakeTwilio(),
    startFakeOpenAI(),
    startFakeSpeech(),
    startWebhookReceiver(),
  ]);
  t = await startTestApp({
    model,
    env: {
      // The webhook receiver is local.
      VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
      VOXGATE_TELEPHONY: "twilio",
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_API_BASE_URL: twilio.baseUrl,
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
    },
  });
  owner = await t.createAccount({ balance: "50" });
  secret = (await t.app.services.webhooks.rotateSecret(owner.accountId, 0)).secret;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close(), receiver?.close()]);
});

/** A mu-law WAV's format fields and its samples as linear PCM. */
function parseMuLawWav(file: Buffer) {
  expect(file.toString("ascii", 0, 4)).toBe("RIFF");
  expect(file.readUInt32LE(4)).toBe(file.length - 8);
  expect(file.toString("ascii", 8, 16)).toBe("WAVEfmt ");
  let offset = 12;
  let format: { tag: number; channels: number; rate: number; bits: number } | null = null;
  while (offset + 8 <= file.length) {
    const id = file.toString("ascii", offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    if (id === "fmt ") {
      format = {
        tag: file.readUInt16LE(offset + 8),
        channels: file.readUInt16LE(offset + 10),
        rate: file.readUInt32LE(offset + 12),
        bits: file.readUInt16LE(offset + 22),
      };
    }
    if (id === "data") return { format, pcm: muLawToPcm(file.subarray(offset + 8, offset + 8 + size)) };
    offset += 8 + size + (size % 2);
  }
  throw new Error("no data chunk");
}

describe("call recording", () => {
  it("mixes both channels into one mu-law WAV served to the owner only, with ranges", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    const assistant = await createAssistant(t, owner, { phoneNumberId: number.id, record: true });
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: uniqueUsNumber(),
    });
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
    const marks = () => client.received.filter((message) => message.event === "mark").length;
    await client.waitFor(() => marks() >= 2);
    const greeting = client.heardSamples;
    // Twilio streams the caller's line without a gap: silence while the greeting plays, then speech.
    client.silence(3000);
    client.speak("what time is it");
    await client.waitFor(() => marks() >= 3);
    const reply = client.heardSamples - greeting;
    client.stop();
    await client.closed;

    const stored = await vi.waitFor(
      async () => {
        const row = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } });
        expect(row.recordingUrl).toBe(`${PUBLIC_BASE_URL}/recordings/${call.id}.wav`);
        return row;
      },
      { timeout: 15_000, interval: 50 },
    );
    const path = new URL(stored.recordingUrl).pathname;
    const response = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    const file = Buffer.from(await response.arrayBuffer());
    const { format, pcm } = parseMuLawWav(file);
    expect(format).toEqual({ tag: 7, channels: 1, rate: 8000, bits: 8 });
    // As long as the call's line: the caller's audio, then the reply played after its last frame.
    const callerSamples = 3000 * 8 + synthesizeTones("what time is it", 8000).length + 1000 * 8;
    expect(pcm.length).toBe(callerSamples + reply);
    // Sentence by sentence, speech has pauses the tones do not carry: compared without spaces.
    const words = (text: string) => toneText(text).replace(/\s+/g, "");
    expect(spokenParts(pcm).map(words)).toEqual(
      ["Hello! How can I help?", "what time is it", "Echo: what time is it"].map(words),
    );

    // A range, for players that seek.
    const head = await fetch(`${t.url}${path}`, {
      headers: { authorization: `Bearer ${owner.apiKey}`, range: "bytes=0-57" },
    });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-range")).toBe(`bytes 0-57/${file.length}`);
    expect(Buffer.from(await head.arrayBuffer())).toEqual(file.subarray(0, 58));
    const past = await fetch(`${t.url}${path}`, {
      headers: { authorization: `Bearer ${owner.apiKey}`, range: `bytes=${file.length}-` },
    });
    expect(past.status).toBe(416);

    // Another account's key finds nothing; no key is refused.
    const stranger = await t.createAccount();
    const foreign = await fetch(`${t.url}${path}`, {
      headers: { authorization: `Bearer ${stranger.apiKey}` },
    });
    expect(foreign.status).toBe(404);
    expect((await fetch(`${t.url}${path}`)).status).toBe(401);
    const { data } = await t.gql<{ call: { recordingUrl: string } }>(
      "query ($id: Int!) { call(id: $id) { recordingUrl } }",
      { id: call.id },
      { token: owner.apiKey },
    );
    expect(data?.call.recordingUrl).toBe(stored.recordingUrl);
  });
});

describe("call.ended and the recording", () => {
  let number: { id: number };
  beforeAll(async () => {
    number = await telephonyFixtures(t).addNumber(owner);
  });
  const deliveredEnd = (callId: number) =>
    receiver.waitFor((request) => request.json.type === "call.ended" && request.json.data.id === callId);

  /**
   * An answered outbound call of a new recording assistant with webhooks on, its media stream
   * connected and being recorded.
   */
  async function recordedCall(includeRecordingInWebhook: boolean) {
    const assistant = await createAssistant(t, owner, {
      phoneNumberId: number.id,
      record: true,
      isWebhookActive: true,
      webhookUrl: receiver.url,
      includeRecordingInWebhook,
    });
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: uniqueUsNumber(),
    });
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
    await vi.waitFor(
      async () =>
        expect(
          (await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } })).recordingStatus,
        ).toBe("recording"),
      { timeout: 15_000, interval: 20 },
    );
    return { call, client };
  }

  it("waits for a recording whose stream closes after the carrier's end, and carries its URL", async () => {
    const { call, client } = await recordedCall(true);
    await client.waitFor(() => client.received.some((message) => message.event === "mark"));
    // Twilio's status callback comes first: the call is settled, its end held for the recording.
    await callCompleted(t, twilio, call, 7);
    const held = await t.app.db.prisma.webhookEvent.findFirstOrThrow({
      where: { callId: call.id, type: "call.ended" },
    });
    expect(held).toMatchObject({ status: "pending", attempts: 0, heldFor: ["recording"] });
    expect(held.payload).toMatchObject({ data: { status: "completed", recording_url: null } });

    client.stop();
    await client.closed;
    const ended = await deliveredEnd(call.id);
    expect(new Webhook(secret).verify(ended.body, ended.headers as Record<string, string>)).toEqual(
      ended.json,
    );
    const url = `${PUBLIC_BASE_URL}/recordings/${call.id}.wav`;
    expect(ended.json.data).toMatchObject({
      id: call.id,
      status: "completed",
      duration: 7,
      recording_url: url,
    });
    const response = await fetch(`${t.url}${new URL(url).pathname}`, {
      headers: { authorization: `Bearer ${owner.apiKey}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    const file = Buffer.from(await response.arrayBuffer());
    expect(file.toString("ascii", 0, 4)).toBe("RIFF");
    expect(parseMuLawWav(file).pcm.length).toBeGreaterThan(0);
  });

  it("does not wait for the recording, nor name it, when the assistant leaves it out", async () => {
    const { call, client } = await recordedCall(false);
    await callCompleted(t, twilio, call, 3);
    // Sent while the stream is still open: nothing held it.
    const ended = await deliveredEnd(call.id);
    expect(ended.json.data).toMatchObject({ id: call.id, status: "completed" });
    expect(ended.json.data).not.toHaveProperty("recording_url");
    client.stop();
    await client.closed;
  });
});
