import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import {
  type FakeSpeech,
  startFakeSpeech,
  synthesizeTones,
  toneText,
} from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { twilioWebhook, voiceCallEnv } from "../../../test/support/voice-calls.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import type { Assistant } from "../../generated/prisma/client.ts";
import { AT_CAPACITY_WORDS } from "../media/index.ts";
import { newWebCallToken } from "./web-call-token.ts";

const SITE = "https://shop.example";

let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let t: TestApp;
let owner: TestAccount;
let socketUrl: string;
let voiceAssistant: Assistant;

const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

interface Started {
  call_id: number;
  token: string;
  socket_path: string;
  sample_rate: number;
}

function startCall(uuid: string, origin = SITE) {
  return t.rest<Started & { message?: string; code?: string }>(
    "POST",
    `/api/widget/assistants/${uuid}/web-calls`,
    {
      headers: { origin },
    },
  );
}

async function connectedCall(assistant: Assistant) {
  const started = await startCall(assistant.uuid);
  expect(started.status).toBe(201);
  const client = await WebCallClient.connect(socketUrl, started.body.token, { origin: SITE });
  await client.waitFor(() => client.count("ready") === 1);
  return { callId: started.body.call_id, token: started.body.token, client };
}

beforeAll(async () => {
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  t = await startTestApp({ model, env: voiceCallEnv(twilio, speech) });
  socketUrl = `${t.url.replace(/^http/, "ws")}/widget/web-call`;
  owner = await t.createAccount({ balance: "50" });
  voiceAssistant = await createAssistant(t, owner, {
    widgetSettings: { voice: true },
    allowedOrigins: [SITE],
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
});

describe("a web call from the widget", () => {
  let used: { callId: number; token: string };

  it("talks both ways, streams the transcript, ends as the visitor's hang-up and bills each started minute", async () => {
    const settings = await t.rest<{ widget_settings: { voice: boolean } }>(
      "GET",
      `/api/widget/assistants/${voiceAssistant.uuid}`,
    );
    expect(settings.body.widget_settings.voice).toBe(true);
    const balanceBefore = (
      await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } })
    ).balance;

    const { callId, token, client } = await connectedCall(voiceAssistant);
    used = { callId, token };
    expect(await reload(callId)).toMatchObject({ type: "web", status: "in_progress", providerName: "web" });
    await client.waitFor(() => client.count("mark") >= 2);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Hello! How can I help?"));

    // The words, then a whistle at 6 kHz within the same turn: only a 16 kHz microphone carries it.
    const words = synthesizeTones("what time is it", 16_000);
    const whistle = new Int16Array(16_000 * 0.3).map((_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 6000 * i) / 16_000)),
    );
    const said = new Int16Array(words.length + 1600 + whistle.length);
    said.set(words);
    said.set(whistle, words.length + 1600);
    client.sendPcm(said, 1000);
    await client.waitFor(() => client.count("mark") >= 3);
    expect(speech.transcriptions.at(-1)).toBe("what time is it");
    // Speech-to-text heard the browser's microphone at its own rate, not cut to the phone band.
    expect(speech.transcribed.at(-1)!.sampleRate).toBe(16_000);
    expect(speech.transcribed.at(-1)!.loudestAbove4kHz).toBeGreaterThan(4000);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: what time is it"));
    await client.waitFor((received) => received.filter((m) => m.type === "transcript").length >= 3);
    expect(client.received.filter((m) => m.type === "transcript")).toMatchObject([
      { speaker: "assistant", text: "Hello! How can I help?" },
      { speaker: "customer", text: "what time is it" },
      { speaker: "assistant", text: "Echo: what time is it" },
    ]);
    // The played acknowledgements reached the engine: the answer's audio was heard at the browser.
    await eventually(async () => {
      const turns = await t.app.db.prisma.callTurn.findMany({ where: { callId }, orderBy: { id: "asc" } });
      expect(turns.at(-1)?.playedAt).not.toBeNull();
    });

    // Two and a half minutes into the call, the visitor hangs up.
    await t.app.db.prisma.call.update({
      where: { id: callId },
      data: { startedAt: new Date(Date.now() - 150_000) },
    });
    client.close();
    await client.closed;
    await eventually(async () => expect((await reload(callId)).totalCost.toFixed(2)).toBe("0.30"));
    const ended = await reload(callId);
    expect(ended.status).toBe("ended_by_customer");
    expect(ended.transcript).toBe(
      "Assistant: Hello! How can I help?\nCustomer: what time is it\nAssistant: Echo: what time is it",
    );
    expect(ended.totalCost.toFixed(2)).toBe("0.30");
    const ledger = await t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } });
    expect(ledger.map((entry) => entry.callMinute)).toEqual([1, 2, 3]);
    const balanceAfter = (await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } }))
      .balance;
    expect(balanceBefore.sub(balanceAfter).toFixed(2)).toBe("0.30");
  });

  it("refuses a replayed, forged, expired or foreign-origin token without touching the call", async () => {
    const replayed = await WebCallClient.connect(socketUrl, used.token, { origin: SITE });
    expect((await replayed.closed).code).toBe(1008);

    const started = await startCall(voiceAssistant.uuid);
    const { call_id: callId, token } = started.body;
    const [id, expires, secret] = token.split(".");
    const later = `${id}.${Number(expires) + 600}.${secret}`;
    const otherSecret = `${id}.${expires}.${"A".repeat(43)}`;
    const otherCall = `${used.callId}.${expires}.${secret}`;
    for (const forged of [later, otherSecret, otherCall, "nonsense"]) {
      const client = await WebCallClient.connect(socketUrl, forged, { origin: SITE });
      expect((await client.closed).code).toBe(1008);
      expect(client.received).toEqual([]);
    }
    const foreign = await WebCallClient.connect(socketUrl, token, { origin: "https://evil.example" });
    expect((await foreign.closed).code).toBe(1008);
    expect(await reload(callId)).toMatchObject({ status: "initiated" });

    // The genuine token still works once the forgeries were refused...
    const client = await WebCallClient.connect(socketUrl, token, { origin: SITE });
    await client.waitFor(() => client.count("ready") === 1);
    client.close();
    await eventually(async () => expect((await reload(callId)).status).toBe("ended_by_customer"));

    // ...while one past its life is refused, though it is the call's current token.
    const expiring = await startCall(voiceAssistant.uuid);
    const stale = newWebCallToken(Date.now() - 120_000).forCall(expiring.body.call_id);
    await t.app.db.prisma.call.update({
      where: { id: expiring.body.call_id },
      data: { mediaStreamNonce: stale.digest },
    });
    const expired = await WebCallClient.connect(socketUrl, stale.token, { origin: SITE });
    expect((await expired.closed).code).toBe(1008);
    expect(await reload(expiring.body.call_id)).toMatchObject({ status: "initiated" });
  });

  it("starts only where the owner allows it and can pay for it", async () => {
    const foreign = await startCall(voiceAssistant.uuid, "https://evil.example");
    expect(foreign.status).toBe(403);
    const chatOnly = await createAssistant(t, owner);
    const off = await startCall(chatOnly.uuid);
    expect(off.status).toBe(403);
    expect(off.body.message).toBe("This assistant does not take calls from the website.");
    const broke = await t.createAccount({ balance: "0" });
    const unpaid = await createAssistant(t, broke, { widgetSettings: { voice: true } });
    expect((await startCall(unpaid.uuid)).status).toBe(402);
    expect(await t.app.db.prisma.call.count({ where: { accountId: broke.accountId } })).toBe(0);
  });

  it("closes the visitor's socket with the end when the call is ended elsewhere", async () => {
    const { callId, client } = await connectedCall(voiceAssistant);
    await client.waitFor(() => client.count("mark") >= 2);
    await t.gql(
      "mutation ($id: Int!) { endCall(id: $id) { status } }",
      { id: callId },
      { token: owner.apiKey },
    );
    await client.closed;
    expect(client.received.at(-1)).toMatchObject({ type: "end", status: "ended" });
    expect((await reload(callId)).status).toBe("ended");
  });

  it("ends the call as the assistant's when the engine hangs up, telling the browser why", async () => {
    const assistant = await createAssistant(t, owner, {
      widgetSettings: { voice: true },
      initialMessage: "",
    });
    const { callId, client } = await connectedCall(assistant);
    model.enqueue({ toolCalls: [{ name: "end_call", arguments: {} }] }, { content: "Goodbye then." });
    client.speak("bye");
    await client.closed;
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Goodbye then."));
    expect(client.received.at(-1)).toMatchObject({ type: "end", status: "ended_by_assistant" });
    expect((await reload(callId)).status).toBe("ended_by_assistant");
  });
});

describe("ambient_sound", () => {
  /** What the visitor hears after the greeting while neither side speaks for three seconds. */
  async function silence(ambientSound: string, ambientSoundVolume: string) {
    const assistant = await createAssistant(t, owner, {
      widgetSettings: { voice: true },
      allowedOrigins: [SITE],
      ambientSound,
      ambientSoundVolume,
    });
    const { callId, client } = await connectedCall(assistant);
    await client.waitFor(() => client.count("mark") >= 2);
    client.takeAudio();
    for (let frame = 0; frame < 150; frame++) client.sendBytes(new Uint8Array(640));
    // Frames are answered as they arrive: everything sent for them is in before the close.
    client.close();
    await client.closed;
    const audio = client.takeAudio();
    let sum = 0;
    for (const sample of audio) sum += sample * sample;
    // The greeting's turn is stored as its playing ends, which a loaded machine may write after the close.
    let turns = 0;
    while (turns === 0) {
      turns = await t.app.db.prisma.callTurn.count({ where: { callId } });
      if (turns === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { ms: audio.length / 16, rms: audio.length ? Math.sqrt(sum / audio.length) : 0, turns };
  }

  it("fills the silences with the bed at its volume, not as speech, and sends nothing in them for none", async () => {
    const none = await silence("none", "1");
    expect(none.ms).toBe(0);
    const loud = await silence("cafe", "1");
    const quiet = await silence("cafe", "0.25");
    // The greeting (1.1 s, sent at once) was queued ahead; the bed fills the rest of the 3 s after it.
    expect(loud.ms).toBeGreaterThanOrEqual(1500);
    expect(quiet.ms).toBeGreaterThanOrEqual(1500);
    // About -26 dBFS at volume 1 (RMS 1600 of 32768 over the whole bed), scaled by the volume.
    expect(loud.rms).toBeGreaterThan(1000);
    expect(loud.rms / quiet.rms).toBeGreaterThan(3.5);
    expect(loud.rms / quiet.rms).toBeLessThan(4.5);
    // The bed is no turn of the assistant's (the greeting is the only one).
    expect([none.turns, loud.turns, quiet.turns]).toEqual([1, 1, 1]);
  });
});

describe("admission control", () => {
  it("refuses web calls and inbound phone calls past the instance's capacity", async () => {
    const limits = t.app.config.voice;
    const configured = limits.maxLiveSessions;
    limits.maxLiveSessions = t.app.services.voice.liveSessions;
    try {
      const refused = await startCall(voiceAssistant.uuid);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("15");
      expect(refused.body.message).toBe("The voice service is busy. Please try again shortly.");
      const { errors, status } = await t.gql(
        "mutation ($uuid: String!) { startWidgetWebCall(input: { assistantUuid: $uuid }) { callId } }",
        { uuid: voiceAssistant.uuid },
        { headers: { origin: SITE } },
      );
      expect(status).toBe(200);
      expect(errors?.[0]?.extensions).toMatchObject({ code: "AT_CAPACITY", retryAfter: 15 });

      const number = await telephonyFixtures(t).addNumber(owner);
      await createAssistant(t, owner, { phoneNumberId: number.id });
      const params = {
        AccountSid: twilio.accountSid,
        CallSid: `CA${"1".repeat(32)}`,
        To: number.phoneNumber,
        From: uniqueUsNumber(),
      };
      const twiml = await twilioWebhook(t, twilio, "/telephony/twilio/voice", params);
      expect(twiml).toContain(`<Say>${AT_CAPACITY_WORDS}</Say><Hangup/>`);
      expect(twiml).not.toContain("<Stream");
      const call = await t.app.db.prisma.call.findUniqueOrThrow({
        where: { providerCallId: params.CallSid },
      });
      expect(call).toMatchObject({ status: "failed", endReason: "The server was at capacity." });
    } finally {
      limits.maxLiveSessions = configured;
    }
  });
});

describe("a web call without a reachable speech service", () => {
  it("is refused at once with the service named: no call recorded, nothing charged", async () => {
    // A port nothing listens on any more: connections to it are refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const deaf = await startTestApp({
      model,
      env: { ...voiceCallEnv(twilio, speech), OPENAI_STT_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    try {
      const account = await deaf.createAccount({ balance: "5" });
      const assistant = await createAssistant(deaf, account, {
        widgetSettings: { voice: true },
        allowedOrigins: [SITE],
      });
      const ledgerBefore = await deaf.app.db.prisma.ledgerEntry.count({
        where: { accountId: account.accountId },
      });
      const started = await deaf.rest<{ message: string }>(
        "POST",
        `/api/widget/assistants/${assistant.uuid}/web-calls`,
        { headers: { origin: SITE } },
      );
      expect(started.status).toBe(502);
      expect(started.body.message).toBe(
        "The call cannot start: speech-to-text (the speech service) cannot be reached. Nothing was charged.",
      );
      expect(await deaf.app.db.prisma.call.count({ where: { accountId: account.accountId } })).toBe(0);
      expect(await deaf.app.db.prisma.ledgerEntry.count({ where: { accountId: account.accountId } })).toBe(
        ledgerBefore,
      );
      const { balance } = await deaf.app.db.prisma.account.findUniqueOrThrow({
        where: { id: account.accountId },
      });
      expect(balance.toFixed(2)).toBe("5.00");
    } finally {
      await deaf.close();
    }
  });
});
