import { expect, vi } from "vitest";
import type { FakeSpeech } from "./fake-speech.ts";
import { type FakeTwilio, postTwilioWebhook } from "./fake-twilio.ts";
import type { TestApp } from "./test-app.ts";
import type { TwilioMediaClient } from "./twilio-media-client.ts";

/** What the voice tests share: Twilio's side of a call's webhooks, and the barge-in's expected outcome. */

/** Settings of an app carrying phone calls over the fake Twilio, spoken through the fake speech server, at $0.10 a minute. */
export function voiceCallEnv(twilio: FakeTwilio, speech: FakeSpeech) {
  return {
    VOXGATE_TELEPHONY: "twilio",
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_API_BASE_URL: twilio.baseUrl,
    VOXGATE_CALL_PRICE_PER_MINUTE: "0.10",
    OPENAI_STT_BASE_URL: speech.baseUrl,
    OPENAI_TTS_BASE_URL: speech.baseUrl,
  };
}

/** Where Twilio connects a call's media stream. */
export const mediaStreamUrl = (t: TestApp) => `${t.url.replace(/^http/, "ws")}/telephony/twilio/media`;

/** Posts a webhook to the app signed as Twilio signs it; the answer's text (TwiML). */
export function twilioWebhook(
  t: TestApp,
  twilio: FakeTwilio,
  pathAndQuery: string,
  params: Record<string, string>,
): Promise<string> {
  return postTwilioWebhook({ appUrl: t.url, authToken: twilio.authToken }, pathAndQuery, params);
}

/** A person answers an outbound call: the media stream token of the TwiML Voxgate answers. */
export async function answerOutbound(
  t: TestApp,
  twilio: FakeTwilio,
  call: { id: number; providerCallId: string | null },
): Promise<string> {
  const twiml = await twilioWebhook(t, twilio, `/telephony/twilio/outbound?callId=${call.id}`, {
    AccountSid: twilio.accountSid,
    CallSid: call.providerCallId!,
    CallStatus: "in-progress",
    AnsweredBy: "human",
  });
  return /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)![1]!;
}

/** Twilio's final status callback: the call completed after `seconds`. */
export function callCompleted(
  t: TestApp,
  twilio: FakeTwilio,
  call: { id: number; providerCallId: string | null },
  seconds: number,
) {
  return twilioWebhook(t, twilio, `/telephony/twilio/status?callId=${call.id}`, {
    AccountSid: twilio.accountSid,
    CallSid: call.providerCallId!,
    CallStatus: "completed",
    CallDuration: String(seconds),
  });
}

/**
 * The caller hangs up (the stream stops, so the call is marked `ended_by_customer`), then Twilio's
 * status callback says the call lasted `seconds`: the call as it ended, billed.
 */
export async function callerHangsUp(
  t: TestApp,
  twilio: FakeTwilio,
  client: TwilioMediaClient,
  call: { id: number; providerCallId: string | null },
  seconds: number,
) {
  const reload = () => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } });
  client.stop();
  await client.closed;
  await vi.waitFor(async () => expect((await reload()).requestedEnd).toBe("ended_by_customer"), {
    timeout: 15_000,
    interval: 20,
  });
  await callCompleted(t, twilio, call, seconds);
  return reload();
}

/** A greeting of three equal sentences, for barge-in tests that let the caller hear only the first. */
export const THREE_SENTENCES = "One two three. Four five six. Seven eight nine.";

/** The caller said "wait" after hearing the first sentence: the greeting is cut there, then answered. */
export async function expectCutAfterFirstSentence(t: TestApp, callId: number) {
  await vi.waitFor(
    async () =>
      expect((await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } })).transcript).toBe(
        "Assistant: One two three.\nCustomer: wait\nAssistant: Echo: wait",
      ),
    { timeout: 15_000, interval: 20 },
  );
  const [greeting] = await t.app.db.prisma.callTurn.findMany({ where: { callId }, orderBy: { id: "asc" } });
  expect(greeting).toMatchObject({ text: THREE_SENTENCES, heardText: "One two three.", interrupted: true });
}
