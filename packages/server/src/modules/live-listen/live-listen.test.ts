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
import { LiveListener } from "../../../test/support/live-listener.ts";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import {
  answerOutbound,
  callerHangsUp,
  mediaStreamUrl,
  voiceCallEnv,
} from "../../../test/support/voice-calls.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import { LISTEN_CLOSE } from "./index.ts";

const SITE = "https://shop.example";

let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let t: TestApp;
/** A second instance on the same database and Redis (PostgreSQL project); on PGlite, which one process owns, `t`. */
let other: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
let wsBase: string;

beforeAll(async () => {
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  database = await freshDatabase();
  t = await startTestApp({ model, env: voiceCallEnv(twilio, speech), database: database.target });
  other =
    testDatabaseKind() === "postgres"
      ? await startTestApp({ model, env: voiceCallEnv(twilio, speech), database: database.target })
      : t;
  wsBase = t.url.replace(/^http/, "ws");
  owner = await t.createAccount({ balance: "50" });
  stranger = await t.createAccount({ balance: "50" });
});

afterAll(async () => {
  if (other !== t) await other?.close();
  await t?.close();
  await database?.drop();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
});

const words = (text: string) => toneText(text).replace(/\s+/g, "");

/**
 * Waits until the listener heard the call's clock reach `line` samples (the caller sent nothing before
 * `listening`), then checks it heard all of it: from `listening` on, no frame is missed.
 */
async function heardWhole(listener: LiveListener, line: number) {
  const reached = () => (listener.positions.at(-1) ?? 0) + (listener.lengths.at(-1) ?? 0);
  await listener.waitFor(() => reached() >= line);
  expect(listener.positions[0]).toBe(0);
  expect(listener.samplesHeard).toBe(line);
}

/** A Twilio call of the owner's, answered, its greeting sent: the caller has said nothing yet. */
async function livePhoneCall() {
  const number = await telephonyFixtures(t).addNumber(owner);
  const assistant = await createAssistant(t, owner, { phoneNumberId: number.id });
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
  await client.waitFor((received) => received.filter((m) => m.event === "mark").length >= 2);
  return { callId: call.id, call, client };
}

async function listening(callId: number, apiKey = owner.apiKey) {
  const listener = await LiveListener.connect(wsBase, { callId, authorization: `Bearer ${apiKey}` });
  await listener.waitFor(() => listener.received.some((m) => m.type === "listening"));
  return listener;
}

const audit = (callId: number, token: string) =>
  t.gql<{
    callListens: {
      userId: number;
      credentialKind: string;
      credentialId: number;
      clientAddress: string;
      endedAt: string | null;
      endReason: string;
      framesSent: number;
    }[];
  }>(
    "query ($callId: Int!) { callListens(callId: $callId) { userId credentialKind credentialId clientAddress endedAt endReason framesSent } }",
    { callId },
    { token },
  );

describe("live listen", () => {
  it("streams a phone call's caller and assistant mixed, ends with the call, and audits the listen", async () => {
    const { callId, client } = await livePhoneCall();
    const listener = await listening(callId);
    expect(listener.received[0]).toMatchObject({
      type: "listening",
      callId,
      format: { encoding: "pcmu", sampleRate: 8000, frameMs: 20 },
    });

    // The greeting plays while the caller is silent, then the caller speaks and hears the reply.
    client.silence(3000);
    client.speak("what time is it");
    await client.waitFor((received) => received.filter((m) => m.event === "mark").length >= 3);
    client.silence(4000);
    // 3 s + the words + 1 s + 4 s of the call's clock: all of it reached the listener.
    const line = 3000 * 8 + synthesizeTones("what time is it", 8000).length + 1000 * 8 + 4000 * 8;
    await heardWhole(listener, line);
    expect(spokenParts(listener.samples()).map(words)).toEqual(
      ["Hello! How can I help?", "what time is it", "Echo: what time is it"].map(words),
    );
    // Positions follow the call's clock without a gap: each frame starts where the one before ended.
    expect(
      listener.positions.slice(1).every((at, i) => at - listener.positions[i]! === listener.lengths[i]),
    ).toBe(true);

    client.stop();
    expect(await listener.closed).toEqual({ code: 1000, reason: "Call ended" });
    expect(listener.received.at(-1)).toEqual({ type: "ended" });

    const owned = await vi.waitFor(
      async () => {
        const { data } = await audit(callId, owner.apiKey);
        expect(data?.callListens[0]?.endedAt).toBeTruthy();
        return data!.callListens;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(owned).toHaveLength(1);
    expect(owned[0]).toMatchObject({
      userId: owner.userId,
      credentialKind: "apiKey",
      clientAddress: "127.0.0.1",
      endReason: "call_ended",
    });
    expect(owned[0]!.framesSent).toBeGreaterThanOrEqual(listener.frameCount);
    // The account's audit log has it too (docs/data-governance.md#audit-log).
    const logged = await t.gql<{ auditLog: { entries: unknown[] } }>(
      `query { auditLog(filter: { action: "call.listen_started" }) { entries { actorKind targetType targetId ip } } }`,
      {},
      { token: owner.apiKey },
    );
    expect(logged.data?.auditLog.entries).toContainEqual({
      actorKind: "apiKey",
      targetType: "call",
      targetId: String(callId),
      ip: "127.0.0.1",
    });
    // Another account cannot read the log of a call it does not own.
    const { errors } = await audit(callId, stranger.apiKey);
    expect(errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("streams a web call mixed, from the browser's 16 kHz to the listener's 8 kHz", async () => {
    const assistant = await createAssistant(t, owner, {
      widgetSettings: { voice: true },
      allowedOrigins: [SITE],
    });
    const started = await t.rest<{ call_id: number; token: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/web-calls`,
      { headers: { origin: SITE } },
    );
    expect(started.status).toBe(201);
    const client = await WebCallClient.connect(`${wsBase}/widget/web-call`, started.body.token, {
      origin: SITE,
    });
    await client.waitFor(() => client.count("mark") >= 2);
    const listener = await listening(started.body.call_id);

    // Silence in 250 ms messages (the largest a browser may send): 20 ms ones would pass the socket's
    // message rate, faster than real time.
    const silence = (ms: number) => {
      for (let sent = 0; sent < ms; sent += 250) client.sendBytes(new Uint8Array(8000));
    };
    silence(3000);
    client.speak("what time is it");
    await client.waitFor(() => client.count("mark") >= 3);
    silence(4000);
    // The server reads whole 20 ms frames (640 bytes): what is left of the last one is not audio yet.
    const sent = 12 * 8000 + (synthesizeTones("what time is it", 16_000).length + 16_000) * 2 + 16 * 8000;
    const line = Math.floor(sent / 640) * 160;
    await heardWhole(listener, line);
    expect(spokenParts(listener.samples()).map(words)).toEqual(
      ["Hello! How can I help?", "what time is it", "Echo: what time is it"].map(words),
    );
    client.close();
    expect((await listener.closed).code).toBe(1000);
  });

  it("refuses another account's call as a call that does not exist, and bad listens", async () => {
    const { callId, call, client } = await livePhoneCall();
    const refused = async (hello: { callId: number; authorization: string } | null, raw?: string) => {
      const listener = await LiveListener.connect(wsBase, hello);
      if (raw !== undefined) listener.socket.send(raw);
      return listener.closed;
    };
    const foreign = await refused({ callId, authorization: `Bearer ${stranger.apiKey}` });
    const missing = await refused({ callId: 2_000_000_000, authorization: `Bearer ${owner.apiKey}` });
    expect(foreign).toEqual({ code: LISTEN_CLOSE.notFound, reason: "Call not found" });
    expect(missing).toEqual(foreign);
    expect(await refused({ callId, authorization: "Bearer vg_not_a_key" })).toEqual({
      code: LISTEN_CLOSE.unauthorized,
      reason: "Unauthorized",
    });
    expect(await refused(null, `{"type":"listen","callId":"${callId}"}`)).toEqual({
      code: LISTEN_CLOSE.badRequest,
      reason: "Expected a listen message",
    });
    // No credential in the URL is ever read.
    expect((await refused(null, "not json")).code).toBe(LISTEN_CLOSE.badRequest);
    // The stranger's attempt left no listen in the owner's log.
    expect((await audit(callId, owner.apiKey)).data?.callListens).toEqual([]);

    // A listener that speaks after its listen is closed; the call goes on for the others.
    const chatty = await listening(callId);
    chatty.socket.send("hello?");
    expect((await chatty.closed).code).toBe(LISTEN_CLOSE.badRequest);

    // Listeners per call are bounded.
    const many = await Promise.all(Array.from({ length: 5 }, () => listening(callId)));
    expect(await refused({ callId, authorization: `Bearer ${owner.apiKey}` })).toEqual({
      code: LISTEN_CLOSE.tooMany,
      reason: "Too many listeners",
    });
    await callerHangsUp(t, twilio, client, call, 10);
    for (const listener of many) expect((await listener.closed).code).toBe(1000);

    // An ended call of the account's own is not live.
    expect(await refused({ callId, authorization: `Bearer ${owner.apiKey}` })).toEqual({
      code: LISTEN_CLOSE.notLive,
      reason: "Call is not live",
    });
  });

  it("relays a call's audio to a listener on another instance (through Redis on PostgreSQL)", async () => {
    // No greeting: nothing plays before the relay carries audio.
    const number = await telephonyFixtures(t).addNumber(owner);
    const assistant = await createAssistant(t, owner, { phoneNumberId: number.id, initialMessage: "" });
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: uniqueUsNumber(),
    });
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
    const elsewhere = await LiveListener.connect(other.url.replace(/^http/, "ws"), {
      callId: call.id,
      authorization: `Bearer ${owner.apiKey}`,
    });
    await elsewhere.waitFor(() => elsewhere.received.some((m) => m.type === "listening"));
    // Told `listening`, the other instance's subscription through Redis is made and the call's
    // instance taps the call: the caller's first words are heard whole.
    client.silence(1000);
    client.speak("what time is it");
    await heardWhole(elsewhere, 1000 * 8 + synthesizeTones("what time is it", 8000).length + 1000 * 8);
    expect(spokenParts(elsewhere.samples()).map(words)).toContain(words("what time is it"));
    await callerHangsUp(t, twilio, client, call, 5);
    expect((await elsewhere.closed).code).toBe(1000);
  });

  it("ends a listen whose API key is deleted", async () => {
    const { callId, client } = await livePhoneCall();
    const key = await t.app.services.apiKeys.create(
      { accountId: owner.accountId, userId: owner.userId },
      {
        name: "listener",
      },
    );
    const listener = await listening(callId, key.token);
    await t.app.services.apiKeys.delete(owner.accountId, key.apiKey.id);
    expect((await listener.closed).code).toBe(LISTEN_CLOSE.unauthorized);
    client.stop();
    const { data } = await audit(callId, owner.apiKey);
    expect(data?.callListens[0]).toMatchObject({ credentialKind: "apiKey", credentialId: key.apiKey.id });
  });
});
