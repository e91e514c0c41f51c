import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type EspeakSpeech, espeak, espeakMissing } from "../../../test/support/espeak.ts";
import { type FakeCartesia, startFakeCartesia } from "../../../test/support/fake-cartesia.ts";
import { type FakeDeepgram, startFakeDeepgram } from "../../../test/support/fake-deepgram.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import {
  type FakeOpenAiTranscription,
  startFakeOpenAiTranscription,
} from "../../../test/support/fake-openai-transcription.ts";
import { type FakeSpeech, startFakeSpeech, toneText } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { HeardUtterance } from "../../../test/support/tone-listener.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import { answerOutbound, mediaStreamUrl, voiceCallEnv } from "../../../test/support/voice-calls.ts";
import type { PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * Phone calls with real speech: a Twilio Media Streams caller plays sentences espeak-ng said (8 kHz
 * mu-law) into a pipeline call that transcribes as the caller speaks (Deepgram live, OpenAI realtime
 * transcription) and answers through Cartesia's streaming voice. The speech fakes cannot recognise
 * words, so each utterance's transcript is scripted; they still answer only from what they hear
 * (voice, then the endpointing silence), so the tests check that they heard the espeak speech whole.
 */

const missing = espeakMissing();
const QUESTION = "what time do you open tomorrow";
const INTERRUPTION = "no wait I need another day";
const ANSWER = "We open at nine. We close at five. See you then.";
/** Frame alignment and mu-law at the quietest edges of the words. */
const VOICED_TOLERANCE_MS = 60;

const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const marks = (received: TwilioMediaClient["received"]) => received.filter((m) => m.event === "mark").length;
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

/** A promise and its resolve: the model goes on writing once released. */
function gate() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

/** The listener heard `speech` whole: as much voice, over as long a span, as the file carries. */
function expectHeardWhole(utterance: HeardUtterance, speech: EspeakSpeech) {
  expect(Math.abs(utterance.voicedMs - speech.voicedMs)).toBeLessThanOrEqual(VOICED_TOLERANCE_MS);
  const span = speech.speechEndMs - speech.speechStartMs;
  expect(Math.abs(utterance.endMs - utterance.startMs - span)).toBeLessThanOrEqual(VOICED_TOLERANCE_MS);
}

let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let cartesia: FakeCartesia;
let deepgram: FakeDeepgram;
let transcription: FakeOpenAiTranscription;
let question: EspeakSpeech;
let interruption: EspeakSpeech;

beforeAll(async () => {
  if (missing) return;
  question = espeak(QUESTION, { voice: "en-us", sampleRate: 8000, phone: true });
  interruption = espeak(INTERRUPTION, { voice: "en-gb", sampleRate: 8000, phone: true });
  [twilio, model, speech, cartesia, deepgram, transcription] = await Promise.all([
    startFakeTwilio(),
    startFakeOpenAI(),
    startFakeSpeech(),
    startFakeCartesia(),
    startFakeDeepgram(),
    startFakeOpenAiTranscription(),
  ]);
});

afterAll(async () => {
  await Promise.all([
    twilio?.close(),
    model?.close(),
    speech?.close(),
    cartesia?.close(),
    deepgram?.close(),
    transcription?.close(),
  ]);
});

const providers = [
  {
    name: "Deepgram live streaming",
    env: () => ({
      VOXGATE_STT_PROVIDER: "deepgram",
      VOXGATE_DEEPGRAM_URL: deepgram.url,
      VOXGATE_DEEPGRAM_API_KEY: "dg-key",
    }),
    script: (...texts: string[]) => deepgram.script(...texts),
    heardUtterances: () => deepgram.streams.at(-1)!.utterances,
  },
  {
    name: "OpenAI realtime transcription",
    env: () => ({
      VOXGATE_STT_PROVIDER: "openai-realtime",
      OPENAI_REALTIME_BASE_URL: transcription.baseUrl,
    }),
    script: (...texts: string[]) => transcription.script(...texts),
    heardUtterances: () => transcription.sessions.at(-1)!.utterances,
  },
];

for (const provider of providers) {
  describe.skipIf(missing)(
    `an espeak-ng caller on a phone call transcribed by ${provider.name}${missing ? ` (skipped: ${missing})` : ""}`,
    () => {
      let t: TestApp;
      let owner: TestAccount;
      let number: PhoneNumber;

      beforeAll(async () => {
        t = await startTestApp({
          model,
          env: {
            ...voiceCallEnv(twilio, speech),
            ...provider.env(),
            VOXGATE_TTS_PROVIDER: "cartesia",
            CARTESIA_BASE_URL: cartesia.baseUrl,
            CARTESIA_API_KEY: cartesia.apiKey,
            CARTESIA_VOICE_ID: "cartesia-default-voice",
          },
        });
        owner = await t.createAccount({ balance: "50" });
        number = await telephonyFixtures(t).addNumber(owner);
      });

      afterAll(async () => {
        await t?.close();
      });

      it("answers after the speech ends, speaks through Cartesia, and a spoken barge-in cancels the answer", async () => {
        const assistant = await createAssistant(t, owner, {
          initialMessage: "",
          phoneNumberId: number.id,
          interruptSensitivity: 1,
        });
        const call = await t.app.services.callStarts.placeOutbound({
          accountId: owner.accountId,
          assistantId: assistant.id,
          to: uniqueUsNumber(),
        });
        const client = await TwilioMediaClient.connect(
          mediaStreamUrl(t),
          await answerOutbound(t, twilio, call),
        );
        const contextsBefore = cartesia.contexts.length;
        const synthesesBefore = speech.syntheses.length;
        const batchBefore = speech.transcriptions.length;
        provider.script(QUESTION, INTERRUPTION);
        const writing = gate();
        model.enqueue({ content: ANSWER, holdAfterFirstSentence: writing.held });

        // The caller asks; the answer's first sentence is spoken while the model holds the rest.
        client.autoAckMarks = false;
        client.play(question.pcm);
        await client.waitFor((received) => marks(received) >= 1);
        expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("We open at nine."));
        const [asked] = provider.heardUtterances();
        expect(asked?.transcript).toBe(QUESTION);
        expectHeardWhole(asked!, question);

        // Over the answer, the caller says something else: the audio is cleared, Cartesia's context cancelled.
        client.ackMarks(1);
        client.autoAckMarks = true;
        client.play(interruption.pcm);
        await client.waitFor((received) => received.some((message) => message.event === "clear"));
        writing.release();
        await eventually(async () =>
          expect((await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } })).transcript).toBe(
            `Customer: ${QUESTION}\nAssistant: We open at nine.\nCustomer: ${INTERRUPTION}\nAssistant: Echo: ${INTERRUPTION}`,
          ),
        );
        await client.waitFor((received) => marks(received) >= 2);
        expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard(`Echo: ${INTERRUPTION}`));

        const utterances = provider.heardUtterances();
        expect(utterances.map((utterance) => utterance.transcript)).toEqual([QUESTION, INTERRUPTION]);
        expectHeardWhole(utterances[1]!, interruption);

        const contexts = cartesia.contexts.slice(contextsBefore);
        expect(contexts.map((context) => ({ cancelled: context.cancelled, done: context.done }))).toEqual([
          { cancelled: true, done: false },
          { cancelled: false, done: true },
        ]);
        expect(contexts[0]!.inputs.map((input) => input.transcript ?? "cancel").join("")).toBe(
          "We open at nine. cancel",
        );
        // Every word was heard and spoken by the streaming providers: nothing went through batch speech.
        expect(speech.syntheses.length).toBe(synthesesBefore);
        expect(speech.transcriptions.length).toBe(batchBefore);

        const turns = await t.app.db.prisma.callTurn.findMany({
          where: { callId: call.id },
          orderBy: { id: "asc" },
        });
        expect(
          turns.map(({ speaker, text, heardText, interrupted }) => ({
            speaker,
            text,
            heardText,
            interrupted,
          })),
        ).toEqual([
          { speaker: "customer", text: QUESTION, heardText: QUESTION, interrupted: false },
          { speaker: "assistant", text: ANSWER, heardText: "We open at nine.", interrupted: true },
          { speaker: "customer", text: INTERRUPTION, heardText: INTERRUPTION, interrupted: false },
          {
            speaker: "assistant",
            text: `Echo: ${INTERRUPTION}`,
            heardText: `Echo: ${INTERRUPTION}`,
            interrupted: false,
          },
        ]);
        // Each reply started from the provider's final transcript, which came after the speech and its
        // endpointing silence: never on a partial result while the caller was still talking.
        for (const [answer, utterance] of [
          [turns[1]!, utterances[0]!],
          [turns[3]!, utterances[1]!],
        ] as const) {
          expect(answer.transcriptAt!.getTime()).toBeGreaterThanOrEqual(utterance.endedAt);
          expect(answer.firstAudioAt!.getTime()).toBeGreaterThanOrEqual(answer.transcriptAt!.getTime());
        }
        client.close();
      });
    },
  );
}
