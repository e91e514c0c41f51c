import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import { framesOf, vadCorpus } from "../../../test/support/vad-corpus.ts";
import { answerOutbound, mediaStreamUrl, voiceCallEnv } from "../../../test/support/voice-calls.ts";
import { PHONE_FORMAT } from "../media/index.ts";

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let owner: TestAccount;
let phoneNumberId: number;

beforeAll(async () => {
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  t = await startTestApp({ model, env: voiceCallEnv(twilio, speech) });
  owner = await t.createAccount({ balance: "50" });
  phoneNumberId = (await telephonyFixtures(t).addNumber(owner)).id;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
});

describe("endpoint_type silero on a phone call", () => {
  it("is set over the API and ends an espeak-ng caller's turn in street-level noise", async () => {
    const created = await t.gql<{ createAssistant: { id: number; endpointType: string } }>(
      `mutation ($input: CreateAssistantInput!) { createAssistant(input: $input) { id endpointType } }`,
      {
        input: {
          name: "Silero",
          systemPrompt: "You are a helpful assistant.",
          initialMessage: "Hello! How can I help?",
          timezone: "UTC",
          endpointType: "silero",
          phoneNumberId,
        },
      },
      { token: owner.apiKey },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data?.createAssistant.endpointType).toBe("silero");
    const assistant = await t.app.db.prisma.assistant.findUniqueOrThrow({
      where: { id: created.data!.createAssistant.id },
    });

    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: uniqueUsNumber(),
    });
    const token = await answerOutbound(t, twilio, call);
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), token);
    await client.waitFor((received) => received.filter((m) => m.event === "mark").length >= 2);
    const before = speech.transcribed.length;

    // A sentence with a pause inside, then 2.5 s of noise at -32 dBFS: above the energy level, so an
    // energy detector would hold this turn open for as long as the noise lasts.
    const noisy = vadCorpus().turns.find((turn) => turn.noiseDb === -32)!;
    for (const frame of framesOf(noisy.pcm, PHONE_FORMAT)) {
      client.send({
        event: "media",
        media: {
          track: "inbound",
          chunk: "1",
          timestamp: "0",
          payload: Buffer.from(frame).toString("base64"),
        },
      });
    }
    await expect.poll(() => speech.transcribed.length, { timeout: 15_000, interval: 20 }).toBe(before + 1);
    // The turn ended in the noise, and went to speech-to-text at the phone's rate.
    expect(speech.transcribed.at(-1)?.sampleRate).toBe(8000);
    client.close();
  });

  it("is refused for an unknown detector name", async () => {
    await expect(createAssistant(t, owner, { endpointType: "webrtc" })).rejects.toThrow();
  });
});
