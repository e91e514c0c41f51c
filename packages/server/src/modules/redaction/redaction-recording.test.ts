import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import {
  type FakeSpeech,
  spokenParts,
  startFakeSpeech,
  toneText,
} from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import { answerOutbound, mediaStreamUrl } from "../../../test/support/voice-calls.ts";
import { muLawToPcm } from "../media/index.ts";

/**
 * An assistant that redacts card numbers and silences recordings: a Twilio call (fake Twilio, tone
 * speech) where the caller says a card number the echo model repeats. The stored recording keeps
 * the greeting and silences both turns that carried the number; the transcript has placeholders.
 */

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let owner: TestAccount;

beforeAll(async () => {
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  t = await startTestApp({
    model,
    env: {
      VOXGATE_TELEPHONY: "twilio",
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_API_BASE_URL: twilio.baseUrl,
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
    },
  });
  owner = await t.createAccount({ balance: "50" });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
});

describe("recordings of an assistant that redacts", () => {
  it("silence the turns whose words were redacted", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    const assistant = await createAssistant(t, owner, {
      phoneNumberId: number.id,
      record: true,
      redactPii: ["card_number"],
      redactRecordings: true,
    });
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: uniqueUsNumber(),
    });
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
    const marks = () => client.received.filter((message) => message.event === "mark").length;
    await client.waitFor(() => marks() >= 2);
    client.silence(3000);
    client.speak("card 4111111111111111");
    await client.waitFor(() => marks() >= 3);
    client.silence(1000);
    client.stop();
    await client.closed;

    // The model heard the real number and said it back; what is stored carries placeholders.
    expect(model.chatRequests.at(-1)!.messages.at(-1)).toMatchObject({ content: "card 4111111111111111" });
    const transcript = await vi.waitFor(
      async () => {
        const row = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } });
        expect(row.recordingStatus).toBe("stored");
        expect(row.transcript).toContain("Assistant: Echo: card [card number]");
        return row.transcript;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(transcript).toBe(
      [
        "Assistant: Hello! How can I help?",
        "Customer: card [card number]",
        "Assistant: Echo: card [card number]",
      ].join("\n"),
    );
    // The last turn may be stored after the recording: it is silenced in the stored file then.
    const parts = await vi.waitFor(
      async () => {
        const response = await fetch(`${t.url}/recordings/${call.id}.wav`, {
          headers: { authorization: `Bearer ${owner.apiKey}` },
        });
        const file = Buffer.from(await response.arrayBuffer());
        const spoken = spokenParts(muLawToPcm(file.subarray(58)));
        expect(spoken.join(" ")).not.toContain("4111");
        return spoken;
      },
      { timeout: 15_000, interval: 100 },
    );
    const words = (text: string) => toneText(text).replace(/\s+/g, "");
    expect(parts.map(words)).toEqual(["Hello! How can I help?"].map(words));
  });
});
