import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../../test/fixtures/telephony.ts";
import { type FakeTwilio, startFakeTwilio, twilioSignature } from "../../../../test/support/fake-twilio.ts";
import {
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../../test/support/twilio-media-client.ts";
import { mediaStreamUrl } from "../../../../test/support/voice-calls.ts";
import type { Assistant, Call, PhoneNumber } from "../../../generated/prisma/client.ts";
import { toApiStatus } from "../../calls/call-status.ts";
import { INBOUND_REFUSALS } from "../../calls/inbound-calls.ts";

let t: TestApp;
let fake: FakeTwilio;
let owner: TestAccount;
let number: PhoneNumber;
let assistant: Assistant;

/** Posts a Twilio webhook as Twilio does: a form, signed over the public URL unless told otherwise. */
async function webhook(
  pathAndQuery: string,
  params: Record<string, string>,
  signature: string | null = twilioSignature(fake.authToken, `${PUBLIC_BASE_URL}${pathAndQuery}`, params),
) {
  const response = await fetch(`${t.url}${pathAndQuery}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(signature ? { "x-twilio-signature": signature } : {}),
    },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: await response.text() };
}

const statusCallback = (call: Call, CallStatus: string, extra: Record<string, string> = {}) =>
  webhook(`/telephony/twilio/status?callId=${call.id}`, {
    AccountSid: fake.accountSid,
    CallSid: call.providerCallId!,
    CallStatus,
    To: call.clientPhoneNumber,
    From: call.assistantPhoneNumber,
    ...extra,
  });

const reload = (call: Call) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } });
const ledgerOf = (callId: number) =>
  t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } });

async function placeCall(to = uniqueUsNumber()) {
  return t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to,
  });
}

beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await startTestApp({
    env: {
      VOXGATE_TELEPHONY: "twilio",
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_API_BASE_URL: fake.baseUrl,
      VOXGATE_CALL_PRICE_PER_MINUTE: "0.10",
    },
  });
  owner = await t.createAccount({ balance: "50" });
  number = await telephonyFixtures(t).addNumber(owner);
  assistant = await createAssistant(t, owner, { phoneNumberId: number.id });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("X-Twilio-Signature", () => {
  it("is computed as Twilio documents it, and checked the same way", () => {
    // Twilio's published example.
    const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
    const params = {
      CallSid: "CA1234567890ABCDE",
      Caller: "+14158675310",
      Digits: "1234",
      From: "+14158675310",
      To: "+18005551212",
    };
    expect(twilioSignature("12345", url, params)).toBe("GvWf1cFY/Q7PnoempGyD5oXAezc=");
    const webhooks = t.app.services.twilioWebhooks!;
    expect(webhooks.verify(url, params, twilioSignature(fake.authToken, url, params))).toBe(true);
    expect(webhooks.verify(url, params, "GvWf1cFY/Q7PnoempGyD5oXAezc=")).toBe(false);
  });
});

describe("numbers through Twilio", () => {
  it("buys a number with Voxgate's voice webhook and status callback, and refuses an unavailable one", async () => {
    const bought = fake.requests.find((request) => request.resource === "/IncomingPhoneNumbers.json");
    expect(bought?.params).toMatchObject({
      PhoneNumber: number.phoneNumber,
      VoiceUrl: `${PUBLIC_BASE_URL}/telephony/twilio/voice`,
      VoiceMethod: "POST",
      StatusCallback: `${PUBLIC_BASE_URL}/telephony/twilio/status`,
    });
    expect(number.providerName).toBe("twilio");
    expect(number.providerRef).toMatch(/^PN[0-9a-f]{32}$/);
    const taken = uniqueUsNumber();
    fake.unavailableNumbers.add(taken);
    await expect(telephonyFixtures(t).addNumber(owner, { phoneNumber: taken })).rejects.toMatchObject({
      code: "PHONE_NUMBER_UNAVAILABLE",
    });
    // The claim was given up: the number is nobody's.
    expect(await t.app.db.prisma.phoneNumber.count({ where: { phoneNumber: taken } })).toBe(0);
  });
});

describe("releasing numbers through Twilio", () => {
  it("releases a dedicated number on Twilio when its period ends, and removes a caller ID at once", async () => {
    const dedicated = await telephonyFixtures(t).addNumber(owner);
    const outcome = await t.app.services.phoneNumbers.release(owner.accountId, dedicated.id);
    expect(outcome.releasedNow).toBe(false);
    const deletePath = `/IncomingPhoneNumbers/${dedicated.providerRef}.json`;
    expect(fake.requests.some((request) => request.resource === deletePath)).toBe(false);
    await t.app.services.phoneNumberReleases.sweep(new Date(outcome.releasesAt!.getTime() + 1000));
    expect(fake.requests.filter((request) => request.resource === deletePath)).toMatchObject([
      { method: "DELETE" },
    ]);

    const callerId = await telephonyFixtures(t).addNumber(owner, { kind: "caller_id" });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      resource: "/OutgoingCallerIds.json",
      params: { PhoneNumber: callerId.phoneNumber },
    });
    await fake.answerValidationCall(callerId.phoneNumber, callerId.validationCode!, t.url);
    await t.app.services.phoneNumbers.release(owner.accountId, callerId.id);
    const [list, remove] = fake.requests.slice(-2);
    expect(list).toMatchObject({ method: "GET", params: { PhoneNumber: callerId.phoneNumber } });
    expect(remove).toMatchObject({ method: "DELETE" });
    expect(remove!.resource).toMatch(/^\/OutgoingCallerIds\/PN[0-9a-f]{32}\.json$/);
  });
});

describe("outbound calls through Twilio", () => {
  it("creates the call through the REST API with a status callback for every transition", async () => {
    const to = uniqueUsNumber();
    const call = await placeCall(to);
    expect(call).toMatchObject({ status: "initiated", providerName: "twilio", clientPhoneNumber: to });
    expect(call.providerCallId).toMatch(/^CA[0-9a-f]{32}$/);
    const created = fake.requests.filter((request) => request.resource === "/Calls.json").at(-1)!;
    expect(created.params).toMatchObject({
      To: to,
      From: number.phoneNumber,
      Url: `${PUBLIC_BASE_URL}/telephony/twilio/outbound?callId=${call.id}`,
      StatusCallback: `${PUBLIC_BASE_URL}/telephony/twilio/status?callId=${call.id}`,
      StatusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
      // The assistant leaves a message on voicemail: the verdict comes once the greeting ended.
      MachineDetection: "DetectMessageEnd",
      AsyncAmd: "true",
      AsyncAmdStatusCallback: `${PUBLIC_BASE_URL}/telephony/twilio/amd?callId=${call.id}`,
    });
  });

  it("applies signed callbacks once, in the table's order, and bills the minutes Twilio counted", async () => {
    const call = await placeCall();
    expect((await statusCallback(call, "ringing")).status).toBe(204);
    const answer = await webhook(`/telephony/twilio/outbound?callId=${call.id}`, {
      AccountSid: fake.accountSid,
      CallSid: call.providerCallId!,
      CallStatus: "in-progress",
      AnsweredBy: "human",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`<Connect><Stream url="wss://voxgate.test/telephony/twilio/media">`);
    // The stream is opened with a signed, single-use token naming the call (media-streams.test.ts).
    expect(answer.body).toMatch(
      new RegExp(`<Parameter name="token" value="${call.id}\\.\\d+\\.[\\w-]{16}\\.[\\w-]{43}"/>`),
    );
    expect(await reload(call)).toMatchObject({ status: "in_progress", answeredBy: "human" });
    // Repeated and stale callbacks change nothing.
    await statusCallback(call, "in-progress");
    await statusCallback(call, "ringing");
    expect((await reload(call)).status).toBe("in_progress");

    await statusCallback(call, "completed", { CallDuration: "125" });
    await statusCallback(call, "completed", { CallDuration: "125" });
    await statusCallback(call, "in-progress");
    const ended = await reload(call);
    expect(ended).toMatchObject({ status: "completed", duration: 125 });
    expect(ended.carrierCost.toFixed(4)).toBe("0.0130");
    const entries = await ledgerOf(call.id);
    // 125 seconds: minutes 1, 2 and 3 were started, each charged once.
    expect(entries.map((entry) => [entry.callMinute, entry.amount.toFixed(2), entry.heldUntil])).toEqual([
      [1, "-0.10", null],
      [2, "-0.10", null],
      [3, "-0.10", null],
    ]);
    expect(ended.totalCost.toFixed(2)).toBe("0.30");
  });

  it("keeps an ended call's status, duration and cost whatever late callbacks say; only Twilio's price is noted", async () => {
    const call = await placeCall();
    await webhook(`/telephony/twilio/outbound?callId=${call.id}`, {
      AccountSid: fake.accountSid,
      CallSid: call.providerCallId!,
      CallStatus: "in-progress",
      AnsweredBy: "human",
    });
    await statusCallback(call, "completed", { CallDuration: "125" });
    const ended = await reload(call);
    expect(ended).toMatchObject({ status: "completed", duration: 125 });
    expect(ended.totalCost.toFixed(2)).toBe("0.30");
    const price = fake.callPrice;
    try {
      // Twilio prices the call again (an annotation), while its callbacks tell another story.
      fake.callPrice = "-0.02500";
      for (const [status, extra] of [
        ["completed", { CallDuration: "400" }],
        ["in-progress", { AnsweredBy: "machine_start" }],
        ["failed", { CallDuration: "1", ErrorCode: "31005" }],
        ["busy", {}],
        ["no-answer", {}],
      ] as const) {
        expect((await statusCallback(call, status, extra)).status).toBe(204);
      }
    } finally {
      fake.callPrice = price;
    }
    const after = await reload(call);
    expect(after).toMatchObject({
      status: "completed",
      duration: 125,
      answeredBy: "human",
      endReason: ended.endReason,
      endedAt: ended.endedAt,
    });
    expect(after.totalCost.toFixed(2)).toBe("0.30");
    expect(after.carrierCost.toFixed(4)).toBe("0.0250");
    expect((await ledgerOf(call.id)).map((entry) => [entry.callMinute, entry.amount.toFixed(2)])).toEqual([
      [1, "-0.10"],
      [2, "-0.10"],
      [3, "-0.10"],
    ]);
  });

  it("hangs up a late answer webhook of an ended call and refuses its stream, leaving the call as it ended", async () => {
    const call = await placeCall();
    const answer = {
      AccountSid: fake.accountSid,
      CallSid: call.providerCallId!,
      CallStatus: "in-progress",
      AnsweredBy: "human",
    };
    const answered = await webhook(`/telephony/twilio/outbound?callId=${call.id}`, answer);
    const token = /<Parameter name="token" value="([^"]+)"\/>/.exec(answered.body)![1]!;
    await statusCallback(call, "completed", { CallDuration: "125" });
    const ended = await reload(call);
    expect(ended).toMatchObject({ status: "completed", duration: 125 });

    // The token was issued while the call ran and never presented: the call has ended since.
    const stream = await TwilioMediaClient.connect(mediaStreamUrl(t), token);
    expect(await stream.closed).toEqual({ code: 1008, reason: "invalid or used token, or call ended" });
    const late = await webhook(`/telephony/twilio/outbound?callId=${call.id}`, answer);
    expect(late).toEqual({
      status: 200,
      body: '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>',
    });
    expect(await reload(call)).toEqual(ended);
    expect((await ledgerOf(call.id)).map((entry) => entry.callMinute)).toEqual([1, 2, 3]);
  });

  it("applies an end that overtakes the answer, then ignores the late answer", async () => {
    const call = await placeCall();
    await statusCallback(call, "completed", { CallDuration: "30", AnsweredBy: "machine_end_beep" });
    await statusCallback(call, "in-progress");
    await statusCallback(call, "ringing");
    const ended = await reload(call);
    expect(ended).toMatchObject({ status: "completed", duration: 30, answeredBy: "machine" });
    expect(ended.startedAt).not.toBeNull();
    expect((await ledgerOf(call.id)).map((entry) => entry.callMinute)).toEqual([1]);
  });

  it("refunds a call that was never answered, once", async () => {
    const call = await placeCall();
    await statusCallback(call, "ringing");
    await statusCallback(call, "no-answer");
    await statusCallback(call, "no-answer");
    expect(toApiStatus((await reload(call)).status)).toBe("no-answer");
    expect((await ledgerOf(call.id)).map((entry) => [entry.kind, entry.amount.toFixed(2)])).toEqual([
      ["call_debit", "-0.10"],
      ["adjustment", "0.10"],
    ]);
  });

  it("refuses unsigned and mis-signed callbacks with 403 and leaves the call alone", async () => {
    const call = await placeCall();
    const params = { AccountSid: fake.accountSid, CallSid: call.providerCallId!, CallStatus: "busy" };
    const path = `/telephony/twilio/status?callId=${call.id}`;
    expect((await webhook(path, params, null)).status).toBe(403);
    expect((await webhook(path, params, "bm90IGEgc2lnbmF0dXJl")).status).toBe(403);
    // Signed for other fields, or for another call's URL: refused too.
    const other = twilioSignature(fake.authToken, `${PUBLIC_BASE_URL}${path}`, {
      ...params,
      CallStatus: "ringing",
    });
    expect((await webhook(path, params, other)).status).toBe(403);
    const otherUrl = twilioSignature(
      fake.authToken,
      `${PUBLIC_BASE_URL}/telephony/twilio/status?callId=1`,
      params,
    );
    expect((await webhook(path, params, otherUrl)).status).toBe(403);
    expect((await reload(call)).status).toBe("initiated");
    // The same request, correctly signed, is applied.
    expect((await webhook(path, params)).status).toBe(204);
    expect((await reload(call)).status).toBe("busy");
  });

  it("hangs up through the REST API; Twilio's end callback then ends the call as asked", async () => {
    const call = await placeCall();
    await statusCallback(call, "in-progress");
    await t.app.services.callLifecycle.end(owner.accountId, call.id);
    const update = fake.requests.filter(
      (request) => request.resource === `/Calls/${call.providerCallId}.json`,
    );
    expect(update.at(-1)).toMatchObject({ method: "POST", params: { Status: "completed" } });
    await statusCallback(call, "completed", { CallDuration: "12" });
    expect(await reload(call)).toMatchObject({ status: "ended", endReason: "Ended through the API." });
  });

  it("records a carrier refusal as a failed call, refunded", async () => {
    const to = uniqueUsNumber();
    fake.undialableNumbers.add(to);
    const call = await placeCall(to);
    expect(call.status).toBe("failed");
    expect(call.endReason).toContain("Phone number does not appear to be valid");
    expect((await ledgerOf(call.id)).map((entry) => entry.amount.toFixed(2))).toEqual(["-0.10", "0.10"]);
  });
});

describe("inbound calls through Twilio", () => {
  const voice = (to: string, CallSid: string) =>
    webhook("/telephony/twilio/voice", {
      AccountSid: fake.accountSid,
      CallSid,
      CallStatus: "ringing",
      To: to,
      From: "+14155550199",
      Direction: "inbound",
    });

  it("connects a call to the number's assistant through a Media Stream, once per call", async () => {
    const callSid = `CA${"1".repeat(32)}`;
    const first = await voice(number.phoneNumber, callSid);
    const again = await voice(number.phoneNumber, callSid);
    expect(first.status).toBe(200);
    expect(first.body).toContain("<Connect><Stream");
    // The same decision; each answer carries a fresh stream token (the last one issued is valid).
    const withoutToken = (body: string) => body.replace(/name="token" value="[^"]*"/, "");
    expect(withoutToken(again.body)).toBe(withoutToken(first.body));
    const calls = await t.app.db.prisma.call.findMany({ where: { providerCallId: callSid } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      type: "inbound",
      status: "in_progress",
      assistantId: assistant.id,
      clientPhoneNumber: "+14155550199",
      assistantPhoneNumber: number.phoneNumber,
    });
    await webhook("/telephony/twilio/status", {
      AccountSid: fake.accountSid,
      CallSid: callSid,
      CallStatus: "completed",
      CallDuration: "61",
    });
    const ended = await reload(calls[0]!);
    expect(ended).toMatchObject({ status: "completed", duration: 61 });
    expect(ended.totalCost.toFixed(2)).toBe("0.20");
    // Twilio asks again once the call has ended: it is hung up, and the call stays as it ended.
    const late = await voice(number.phoneNumber, callSid);
    expect(late.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
    expect(await reload(calls[0]!)).toEqual(ended);
  });

  it("refuses with a short spoken message when the number has no assistant or the account no money", async () => {
    const bare = await telephonyFixtures(t).addNumber(owner);
    const noAssistant = await voice(bare.phoneNumber, `CA${"2".repeat(32)}`);
    expect(noAssistant.body).toContain(
      `<Say>${INBOUND_REFUSALS.unavailable.replace("'", "&apos;")}</Say><Hangup/>`,
    );
    expect(
      await t.app.db.prisma.call.findFirstOrThrow({ where: { providerCallId: `CA${"2".repeat(32)}` } }),
    ).toMatchObject({ status: "failed", endReason: "The number has no inbound assistant.", type: "inbound" });

    const broke = await t.createAccount({ balance: "0" });
    const brokeNumber = await telephonyFixtures(t).addNumber(broke);
    await createAssistant(t, broke, { phoneNumberId: brokeNumber.id });
    const noMoney = await voice(brokeNumber.phoneNumber, `CA${"3".repeat(32)}`);
    expect(noMoney.body).toContain("<Hangup/>");
    expect(noMoney.body).not.toContain("<Connect>");
    expect(
      await t.app.db.prisma.call.findFirstOrThrow({ where: { providerCallId: `CA${"3".repeat(32)}` } }),
    ).toMatchObject({ status: "failed", endReason: "The account had no balance for the call." });
    expect(
      await t.app.db.prisma.ledgerEntry.count({ where: { accountId: broke.accountId, kind: "call_debit" } }),
    ).toBe(0);
  });

  it("refuses a suspended account's number with a short spoken message, recorded failed and unbilled", async () => {
    const frozen = await t.createAccount({ balance: "50" });
    const line = await telephonyFixtures(t).addNumber(frozen);
    await createAssistant(t, frozen, { phoneNumberId: line.id });
    await t.app.db.prisma.account.update({
      where: { id: frozen.accountId },
      data: { suspendedAt: new Date() },
    });
    const callSid = `CA${"7".repeat(32)}`;
    const refused = await voice(line.phoneNumber, callSid);
    expect(refused.status).toBe(200);
    expect(refused.body).toContain(
      `<Say>${INBOUND_REFUSALS.unavailable.replace("'", "&apos;")}</Say><Hangup/>`,
    );
    expect(refused.body).not.toContain("<Connect>");
    expect(await t.app.db.prisma.call.findFirstOrThrow({ where: { providerCallId: callSid } })).toMatchObject(
      { status: "failed", endReason: "The account is suspended.", startedAt: null },
    );
    expect(
      await t.app.db.prisma.ledgerEntry.count({
        where: { accountId: frozen.accountId, callId: { not: null } },
      }),
    ).toBe(0);
  });

  it("answers only signed form POSTs", async () => {
    const get = await fetch(`${t.url}/telephony/twilio/voice`);
    expect(get.status).toBe(405);
    const json = await fetch(`${t.url}/telephony/twilio/voice`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(415);
    const unsigned = await voice(number.phoneNumber, `CA${"4".repeat(32)}`).then(() =>
      webhook("/telephony/twilio/voice", { CallSid: `CA${"5".repeat(32)}`, To: number.phoneNumber }, null),
    );
    expect(unsigned.status).toBe(403);
    expect(await t.app.db.prisma.call.count({ where: { providerCallId: `CA${"5".repeat(32)}` } })).toBe(0);
  });
  it("refuses simulateInboundCall: only the simulated carrier rings numbers by itself", async () => {
    const callsBefore = await t.app.db.prisma.call.count();
    const response = await t.gql(
      `mutation ($input: SimulateInboundCallInput!) { simulateInboundCall(input: $input) { id } }`,
      { input: { phoneNumberId: number.id, from: "+14155550199" } },
      { token: owner.apiKey },
    );
    expect(response.errors?.[0]?.extensions).toMatchObject({
      code: "SIMULATED_CARRIER_REQUIRED",
      carrier: "twilio",
    });
    expect(await t.app.db.prisma.call.count()).toBe(callsBefore);
  });
});

describe("one holder per number, through Twilio", () => {
  const voice = (params: Record<string, string>) =>
    webhook("/telephony/twilio/voice", {
      AccountSid: fake.accountSid,
      CallSid: `CA${randomBytes(16).toString("hex")}`,
      CallStatus: "ringing",
      From: "+14155550199",
      Direction: "inbound",
      ...params,
    });
  const callOf = (callSid: string) => t.app.db.prisma.call.findFirst({ where: { providerCallId: callSid } });

  it("refuses another account's number before reaching Twilio, and routes the webhook's To to its holder", async () => {
    const [alice, bob] = await Promise.all([
      t.createAccount({ balance: "20" }),
      t.createAccount({ balance: "20" }),
    ]);
    const bobs = await telephonyFixtures(t).addNumber(bob);
    const bobsAssistant = await createAssistant(t, bob, { phoneNumberId: bobs.id });
    const requestsBefore = fake.requests.length;
    for (const kind of [
      { kind: "normal" as const },
      { kind: "sip" as const, sipUri: "sip:desk@pbx-a.example.com" },
      { kind: "caller_id" as const },
    ]) {
      await expect(
        telephonyFixtures(t).addNumber(alice, { ...kind, phoneNumber: bobs.phoneNumber }),
      ).rejects.toMatchObject({
        code: "PHONE_NUMBER_UNAVAILABLE",
        message: "The phone number is not available.",
      });
    }
    // No purchase and no validation call to Bob's phone on Alice's behalf.
    expect(fake.requests.length).toBe(requestsBefore);

    const CallSid = `CA${randomBytes(16).toString("hex")}`;
    const answer = await voice({ CallSid, To: bobs.phoneNumber });
    expect(answer.body).toContain("<Connect><Stream");
    const call = await callOf(CallSid);
    expect(call).toMatchObject({ accountId: bob.accountId, assistantId: bobsAssistant.id });
    const debits = await t.app.db.prisma.ledgerEntry.findMany({ where: { callId: call!.id } });
    expect(debits.map((entry) => entry.accountId)).toEqual([bob.accountId]);
  });

  it("routes a call through the SIP domain only from the SIP number's own PBX, and refuses another Twilio account's request", async () => {
    const owner = await t.createAccount({ balance: "20" });
    const sip = await telephonyFixtures(t).addNumber(owner, {
      kind: "sip",
      sipUri: "sip:desk@pbx-a.example.com",
    });
    const sipAssistant = await createAssistant(t, owner, { phoneNumberId: sip.id });
    const sipCall = (fromHost: string, extra: Record<string, string> = {}) => {
      const CallSid = `CA${randomBytes(16).toString("hex")}`;
      return voice({
        CallSid,
        To: `sip:${sip.phoneNumber}@voxgate.sip.twilio.com;transport=udp`,
        From: `sip:desk@${fromHost}`,
        SipDomain: "voxgate.sip.twilio.com",
        ...extra,
      }).then((answer) => ({ answer, CallSid }));
    };
    const stranger = await sipCall("pbx-b.example.com");
    expect(stranger.answer.body).toContain("<Hangup/>");
    expect(await callOf(stranger.CallSid)).toBeNull();
    // The number dialled from the phone network: not a number Twilio rings for Voxgate.
    const pstn = await voice({ To: sip.phoneNumber });
    expect(pstn.body).not.toContain("<Connect>");

    const own = await sipCall("PBX-A.example.com:5060");
    expect(own.answer.body).toContain("<Connect><Stream");
    expect(await callOf(own.CallSid)).toMatchObject({
      accountId: owner.accountId,
      assistantId: sipAssistant.id,
    });

    const otherAccount = await sipCall("pbx-a.example.com", { AccountSid: `AC${"0".repeat(32)}` });
    expect(otherAccount.answer.body).not.toContain("<Connect>");
    expect(await callOf(otherAccount.CallSid)).toBeNull();
  });

  it("verifies a caller ID as Twilio does: the code shown is typed on Twilio's call, and the callback says so", async () => {
    const caller = await t.createAccount({ balance: "20" });
    const callerAssistant = await createAssistant(t, caller);
    const added = new Date();
    const callerId = await t.app.services.phoneNumbers.add(
      caller.accountId,
      { kind: "caller_id", phoneNumber: uniqueUsNumber() },
      added,
    );
    expect(callerId.status).toBe("pending_verification");
    expect(callerId.validationCode).toMatch(/^\d{6}$/);
    const validation = fake.requests.at(-1)!;
    expect(validation).toMatchObject({
      method: "POST",
      resource: "/OutgoingCallerIds.json",
      params: {
        PhoneNumber: callerId.phoneNumber,
        StatusCallback: `${PUBLIC_BASE_URL}/telephony/twilio/caller-id`,
        StatusCallbackMethod: "POST",
      },
    });
    const place = () =>
      t.app.services.callStarts.placeOutbound({
        accountId: caller.accountId,
        assistantId: callerAssistant.id,
        phoneNumberId: callerId.id,
        to: uniqueUsNumber(),
      });
    await expect(place()).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    // Without the callback, Voxgate asks Twilio, which has not verified it.
    await expect(
      t.app.services.phoneNumbers.verifyCallerId(caller.accountId, callerId.id, null),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });

    // Wrong digits: Twilio reports a failure; that code is spent.
    const wrong = callerId.validationCode === "000000" ? "000001" : "000000";
    await fake.answerValidationCall(callerId.phoneNumber, wrong, t.url);
    const failed = await t.app.db.prisma.phoneNumber.findUniqueOrThrow({ where: { id: callerId.id } });
    expect(failed).toMatchObject({ status: "pending_verification", validationCode: null });

    const again = await t.app.services.phoneNumbers.restartCallerIdVerification(
      caller.accountId,
      callerId.id,
      new Date(added.getTime() + 60_000),
    );
    expect(again.validationCode).toMatch(/^\d{6}$/);
    await fake.answerValidationCall(callerId.phoneNumber, again.validationCode!, t.url);
    const verified = await t.app.db.prisma.phoneNumber.findUniqueOrThrow({ where: { id: callerId.id } });
    expect(verified).toMatchObject({ status: "active", validationCode: null });
    const call = await place();
    expect(call.status).toBe("initiated");
    expect(
      fake.requests.filter((request) => request.resource === "/Calls.json").at(-1)!.params,
    ).toMatchObject({
      From: callerId.phoneNumber,
    });
  });

  it("verifies a caller ID from Twilio's list when the callback never came", async () => {
    const caller = await t.createAccount();
    const callerId = await telephonyFixtures(t).addNumber(caller, { kind: "caller_id" });
    // Typed right on Twilio's call, but the callback is lost on its way.
    await fake.answerValidationCall(callerId.phoneNumber, callerId.validationCode!, null);
    expect((await t.app.db.prisma.phoneNumber.findUniqueOrThrow({ where: { id: callerId.id } })).status).toBe(
      "pending_verification",
    );
    const response = await t.gql<{ verifyCallerId: { status: string } }>(
      `mutation($id: Int!) { verifyCallerId(id: $id) { status } }`,
      { id: callerId.id },
      { token: caller.apiKey },
    );
    expect(response.data!.verifyCallerId.status).toBe("active");
  });

  it("keeps a number whose release Twilio has not completed: nobody else can take it until it has", async () => {
    const [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
    const bobs = await telephonyFixtures(t).addNumber(bob);
    const outcome = await t.app.services.phoneNumbers.release(bob.accountId, bobs.id);
    const periodEnded = new Date(outcome.releasesAt!.getTime() + 1000);
    fake.failingReleases.add(bobs.phoneNumber);
    const sweep = t.app.services.phoneNumberReleases;
    expect(await sweep.sweep(periodEnded)).not.toContain(bobs.id);
    expect(await t.app.db.prisma.phoneNumber.findUniqueOrThrow({ where: { id: bobs.id } })).toMatchObject({
      status: "releasing",
      releasedAt: null,
    });
    // During the release: still Bob's, for Alice as for Bob.
    await expect(
      telephonyFixtures(t).addNumber(alice, { phoneNumber: bobs.phoneNumber }),
    ).rejects.toMatchObject({
      code: "PHONE_NUMBER_UNAVAILABLE",
    });
    await expect(
      telephonyFixtures(t).addNumber(bob, { phoneNumber: bobs.phoneNumber }),
    ).rejects.toMatchObject({
      fields: {
        phoneNumber: [
          "The phone number is being released; it can be added again once the release completes.",
        ],
      },
    });
    await expect(t.app.services.phoneNumbers.release(bob.accountId, bobs.id)).rejects.toMatchObject({
      code: "CONFLICT",
    });

    // Twilio recovers: the next sweep completes the release, and the number is free.
    fake.failingReleases.delete(bobs.phoneNumber);
    expect(await sweep.sweep(periodEnded)).toContain(bobs.id);
    const alices = await telephonyFixtures(t).addNumber(alice, { phoneNumber: bobs.phoneNumber });
    expect(alices).toMatchObject({ accountId: alice.accountId, status: "active" });
  });
});
