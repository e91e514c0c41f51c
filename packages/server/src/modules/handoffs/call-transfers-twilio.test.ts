import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type RealtimePhoneApp, startRealtimePhoneApp } from "../../../test/fixtures/realtime-phone-app.ts";
import { uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import type { FakeOpenAI } from "../../../test/support/fake-openai.ts";
import type { FakeRealtime } from "../../../test/support/fake-realtime.ts";
import { type FakeTwilio, twilioSignature } from "../../../test/support/fake-twilio.ts";
import { PUBLIC_BASE_URL, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import {
  answerOutbound,
  callCompleted,
  mediaStreamUrl,
  twilioWebhook,
} from "../../../test/support/voice-calls.ts";
import type { Assistant, PhoneNumber, TransferDestination } from "../../generated/prisma/client.ts";
import { parseTranscript } from "../telephony/transcript.ts";

/**
 * Cold and warm phone transfers on Twilio, through the local fake Twilio REST API and the Media Streams
 * client: the call's REST update carries the `<Dial>` TwiML; the leg's status callbacks and the
 * `<Dial>`'s action come back signed; an unanswered leg reconnects the caller's media stream to the
 * assistant; forged and replayed actions are refused.
 */

let phone: RealtimePhoneApp;
let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let realtime: FakeRealtime;
let owner: TestAccount;
let number: PhoneNumber;
let assistant: Assistant;
let desk: TransferDestination;

const reload = (id: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id } });
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });
const ledger = async (callId: number) =>
  (await t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } })).map((entry) => [
    entry.kind,
    entry.callMinute,
    entry.amount.toFixed(2),
  ]);

/** POSTs a Twilio callback signed with `authToken`; the HTTP status and body. */
async function post(pathAndQuery: string, params: Record<string, string>, authToken = twilio.authToken) {
  const response = await fetch(`${t.url}${pathAndQuery}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(authToken, `${PUBLIC_BASE_URL}${pathAndQuery}`, params),
    },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: await response.text() };
}

beforeAll(async () => {
  phone = await startRealtimePhoneApp({ chatModel: true });
  ({ t, twilio, realtime, owner, number } = phone);
  model = phone.model!;
  assistant = await createAssistant(t, owner, { initialMessage: "", phoneNumberId: number.id });
  desk = await t.app.services.transferDestinations.create(owner.accountId, {
    assistantId: assistant.id,
    name: "Front desk",
    description: "Questions a person must answer.",
    phoneNumber: uniqueUsNumber(),
  });
});

afterAll(() => phone?.close());

/**
 * An answered call whose caller asks for a person: the model transfers, says the handover sentence,
 * and Voxgate updates the call with the `<Dial>`. Twilio then stops the stream. The TwiML's parts.
 */
async function transferredCall(from = assistant, to = desk, ...more: { content: string }[]) {
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: from.id,
    phoneNumberId: number.id,
    to: uniqueUsNumber(),
  });
  const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
  model.enqueue(
    { toolCalls: [{ name: "transfer_call", arguments: { destination_id: to.id } }] },
    { content: "Connecting you now." },
    ...more,
  );
  client.speak("a person please");
  const update = await eventually(async () => {
    const found = twilio.requests.find(
      (request) =>
        request.method === "POST" &&
        request.resource === `/Calls/${call.providerCallId}.json` &&
        typeof request.params.Twiml === "string",
    );
    expect(found).toBeDefined();
    return found!;
  });
  const twiml = String(update.params.Twiml);
  const [leg] = await t.app.db.prisma.call.findMany({ where: { transferredFromCallId: call.id } });
  // What Twilio does with the update: the stream stops; that is the assistant leaving, not the caller.
  client.stop();
  await client.closed;
  return { call, leg: leg!, twiml };
}

describe("cold transfer on Twilio", () => {
  it("dials the destination with the account's number; the answered leg is billed; the call then hangs up", async () => {
    const { call, leg, twiml } = await transferredCall();
    const action = `/telephony/twilio/transfer-action?callId=${leg.id}`;
    const status = `/telephony/twilio/transfer-status?callId=${leg.id}`;
    expect(twiml).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Dial callerId="${number.phoneNumber}" timeout="25" action="${PUBLIC_BASE_URL}${action}" method="POST"><Number statusCallback="${PUBLIC_BASE_URL}${status}" statusCallbackMethod="POST" statusCallbackEvent="initiated ringing answered completed">${desk.phoneNumber}</Number></Dial></Response>`,
    );
    expect(leg).toMatchObject({
      status: "initiated",
      clientPhoneNumber: desk.phoneNumber,
      providerName: "twilio",
    });
    expect(await reload(call.id)).toMatchObject({
      status: "in_progress",
      requestedEnd: null,
      transferState: "dialing",
    });

    // The leg rings and is answered (its own CallSid): the caller is connected.
    const legSid = `CA${"1".repeat(32)}`;
    for (const CallStatus of ["ringing", "in-progress"])
      await twilioWebhook(t, twilio, status, { AccountSid: twilio.accountSid, CallSid: legSid, CallStatus });
    expect(await reload(leg.id)).toMatchObject({ status: "in_progress", providerCallId: legSid });
    expect(await reload(call.id)).toMatchObject({
      transferState: "connected",
      endReason: "Transferred to Front desk.",
    });

    // A forged action (another token's signature) is refused and changes nothing.
    const forged = await post(
      action,
      { AccountSid: twilio.accountSid, DialCallStatus: "no-answer" },
      "forged",
    );
    expect(forged.status).toBe(403);

    // The person hangs up after 75 s: the leg ends (two started minutes); the action hangs up the caller.
    await twilioWebhook(t, twilio, status, {
      AccountSid: twilio.accountSid,
      CallSid: legSid,
      CallStatus: "completed",
      CallDuration: "75",
    });
    const answer = await post(action, {
      AccountSid: twilio.accountSid,
      DialCallStatus: "completed",
      DialCallSid: legSid,
      DialCallDuration: "75",
    });
    expect(answer).toEqual({
      status: 200,
      body: '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>',
    });
    await callCompleted(t, twilio, call, 90);
    const [ended, legEnded] = await Promise.all([reload(call.id), reload(leg.id)]);
    expect(ended).toMatchObject({
      status: "completed",
      duration: 90,
      endReason: "Transferred to Front desk.",
    });
    expect(parseTranscript(ended.transcript).map((line) => line.text)).toEqual([
      "a person please",
      "Connecting you now.",
      "(Transferred to Front desk.)",
    ]);
    expect(legEnded).toMatchObject({ status: "completed", duration: 75, totalCost: expect.anything() });
    expect(await ledger(leg.id)).toEqual([
      ["call_debit", 1, "-0.10"],
      ["call_debit", 2, "-0.10"],
    ]);
    expect(legEnded.totalCost.toFixed(2)).toBe("0.20");
    // The API links both ways.
    const shown = await t.gql<{ call: Record<string, unknown> }>(
      "query ($id: Int!) { call(id: $id) { status endReason transferState transferredToCallId transferredFromCallId transferDestinationName } }",
      { id: leg.id },
      { token: owner.apiKey },
    );
    expect(shown.data?.call).toEqual({
      status: "completed",
      endReason: "",
      transferState: "",
      transferredToCallId: null,
      transferredFromCallId: call.id,
      transferDestinationName: "Front desk",
    });
    expect(await ledger(call.id)).toEqual([
      ["call_debit", 1, "-0.10"],
      ["call_debit", 2, "-0.10"],
    ]);
  });

  it("brings the caller back to the assistant on a new stream when nobody answers; a replayed action is refused", async () => {
    const { call, leg } = await transferredCall();
    const action = `/telephony/twilio/transfer-action?callId=${leg.id}`;
    const params = {
      AccountSid: twilio.accountSid,
      DialCallStatus: "no-answer",
      DialCallSid: `CA${"2".repeat(32)}`,
    };
    const answer = await post(action, params);
    expect(answer.status).toBe(200);
    const token =
      /<Connect><Stream url="wss:\/\/voxgate\.test\/telephony\/twilio\/media"><Parameter name="token" value="([^"]+)"\/><\/Stream><\/Connect>/.exec(
        answer.body,
      )?.[1];
    expect(token).toBeDefined();
    expect(await reload(leg.id)).toMatchObject({ status: "no_answer", duration: 0 });
    expect(await ledger(leg.id)).toEqual([
      ["call_debit", 1, "-0.10"],
      ["adjustment", null, "0.10"],
    ]);
    // The same signed request again: the transfer was decided, nothing happens twice.
    expect((await post(action, params)).status).toBe(403);

    // Twilio opens the new stream: the assistant says what happened and offers another way.
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), token!);
    const greeting =
      "I'm sorry, I could not reach Front desk: nobody answered. I can take a message or arrange for someone to call you back. What would you prefer?";
    await eventually(async () =>
      expect(parseTranscript((await reload(call.id)).transcript).map((line) => line.text)).toEqual([
        "a person please",
        "Connecting you now.",
        "(The transfer to Front desk was not answered: no-answer.)",
        greeting,
      ]),
    );
    // The model answers the caller next with the conversation before the transfer.
    model.enqueue({ content: "Of course, what is the message?" });
    client.speak("take a message");
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toContain("Assistant: Of course, what is the message?"),
    );
    expect(model.chatRequests.at(-1)!.messages.map((message) => message.content)).toEqual(
      expect.arrayContaining(["a person please", "Connecting you now.", greeting, "take a message"]),
    );
    expect(await reload(call.id)).toMatchObject({ status: "in_progress", transferState: "" });
    client.close();
  });

  it("transfers from a realtime model's call (dualplex) once its handover sentence was spoken", async () => {
    const dualplex = await createAssistant(t, owner, { mode: "dualplex", initialMessage: "" });
    const line = await t.app.services.transferDestinations.create(owner.accountId, {
      assistantId: dualplex.id,
      name: "Billing",
      description: "Invoices and refunds.",
      sipUri: "sip:billing@pbx.example.com",
    });
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: dualplex.id,
      phoneNumberId: number.id,
      to: uniqueUsNumber(),
    });
    const sessions = realtime.sessions.length;
    const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
    await eventually(async () =>
      expect(realtime.sessions[sessions]?.received[0]?.type).toBe("session.update"),
    );
    const tools =
      (realtime.sessions[sessions]!.session.tools as { name: string; description: string }[]) ?? [];
    expect(tools.find((tool) => tool.name === "transfer_call")?.description).toContain(
      `${line.id}: Billing. Invoices and refunds.`,
    );
    realtime.enqueue(
      { functionCall: { name: "transfer_call", arguments: { destination_id: line.id } } },
      { text: "Connecting you to billing now." },
    );
    client.speak("my invoice is wrong");
    const update = await eventually(async () => {
      const found = twilio.requests.find(
        (request) =>
          request.resource === `/Calls/${call.providerCallId}.json` &&
          typeof request.params.Twiml === "string",
      );
      expect(found).toBeDefined();
      return found!;
    });
    // The sentence was said before the carrier was asked: it is in the transcript already.
    expect((await reload(call.id)).transcript).toContain("Assistant: Connecting you to billing now.");
    const [leg] = await t.app.db.prisma.call.findMany({ where: { transferredFromCallId: call.id } });
    expect(String(update.params.Twiml)).toContain(
      `<Sip statusCallback="${PUBLIC_BASE_URL}/telephony/twilio/transfer-status?callId=${leg!.id}" statusCallbackMethod="POST" statusCallbackEvent="initiated ringing answered completed">sip:billing@pbx.example.com</Sip>`,
    );
    client.stop();
    await client.closed;
    expect(await reload(call.id)).toMatchObject({ transferState: "dialing", requestedEnd: null });
  });
});

describe("warm transfer on Twilio", () => {
  let warmAssistant: Assistant;
  let warm: TransferDestination;
  const BRIEFING = "Ana Lopez asks about her invoice.";
  const streamUpdate = (providerCallId: string | null) =>
    twilio.requests.filter(
      (request) =>
        request.resource === `/Calls/${providerCallId}.json` &&
        String(request.params.Twiml ?? "").includes("<Connect><Stream"),
    );

  beforeAll(async () => {
    warmAssistant = await createAssistant(t, owner, { initialMessage: "" });
    warm = await t.app.services.transferDestinations.create(owner.accountId, {
      assistantId: warmAssistant.id,
      name: "Billing",
      description: "Invoices.",
      phoneNumber: uniqueUsNumber(),
      mode: "warm",
      briefingInstructions: "Name and reason first.",
    });
  });

  /** A warm transfer under way: the caller held in the conference, the leg created. */
  async function warmCall() {
    const { call, leg, twiml } = await transferredCall(warmAssistant, warm, { content: BRIEFING });
    expect(twiml).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Dial><Conference startConferenceOnEnter="false" endConferenceOnExit="true" beep="false">voxgate-transfer-${leg.id}</Conference></Dial><Hangup/></Response>`,
    );
    const created = twilio.requests.find(
      (request) =>
        request.resource === "/Calls.json" &&
        request.params.Url === `${PUBLIC_BASE_URL}/telephony/twilio/warm-answer?callId=${leg.id}`,
    );
    expect(created?.params).toMatchObject({
      To: warm.phoneNumber,
      From: number.phoneNumber,
      Timeout: "25",
      StatusCallback: `${PUBLIC_BASE_URL}/telephony/twilio/warm-status?callId=${leg.id}`,
    });
    expect(leg.transcript).toBe(`Assistant: ${BRIEFING}`);
    return { call, leg };
  }

  it("briefs the person who answers; a key press accepts and joins them to the caller's conference", async () => {
    const { call, leg } = await warmCall();
    const answer = await post(`/telephony/twilio/warm-answer?callId=${leg.id}`, {
      AccountSid: twilio.accountSid,
    });
    const decision = `${PUBLIC_BASE_URL}/telephony/twilio/warm-decision?callId=${leg.id}`;
    expect(answer.body).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Gather numDigits="1" timeout="6" action="${decision}" method="POST"><Say>${BRIEFING} Press 1 to take the call, or 2 to decline.</Say></Gather><Redirect method="POST">${decision}</Redirect></Response>`,
    );
    // Answered is not accepted: the caller waits on hold until the person decides.
    expect(await reload(call.id)).toMatchObject({ transferState: "dialing" });
    const accept = { AccountSid: twilio.accountSid, Digits: "1" };
    const accepted = await post(`/telephony/twilio/warm-decision?callId=${leg.id}`, accept);
    expect(accepted.body).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Dial><Conference startConferenceOnEnter="true" endConferenceOnExit="true" beep="false">voxgate-transfer-${leg.id}</Conference></Dial></Response>`,
    );
    expect(await reload(call.id)).toMatchObject({
      transferState: "connected",
      endReason: "Transferred to Billing.",
    });
    expect((await post(`/telephony/twilio/warm-decision?callId=${leg.id}`, accept)).status).toBe(403);
    expect(streamUpdate(call.providerCallId)).toEqual([]);
  });

  it("takes the caller back to the assistant when the person declines or nobody answers", async () => {
    const declined = await warmCall();
    const no = { AccountSid: twilio.accountSid, Digits: "2" };
    const answer = await post(`/telephony/twilio/warm-decision?callId=${declined.leg.id}`, no);
    expect(answer.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Alright. The caller stays with the assistant. Goodbye.</Say><Hangup/></Response>',
    );
    // The caller's call leaves the conference for a new stream to the assistant, once.
    expect(streamUpdate(declined.call.providerCallId)).toHaveLength(1);
    expect((await post(`/telephony/twilio/warm-decision?callId=${declined.leg.id}`, no)).status).toBe(403);
    expect(streamUpdate(declined.call.providerCallId)).toHaveLength(1);
    expect(await reload(declined.call.id)).toMatchObject({ transferState: "returned" });

    const unanswered = await warmCall();
    // Twilio reports on the leg it placed by that leg's own CallSid.
    const legSid = [...twilio.calls.values()].findLast((created) => created.to === warm.phoneNumber)!.sid;
    await twilioWebhook(t, twilio, `/telephony/twilio/warm-status?callId=${unanswered.leg.id}`, {
      AccountSid: twilio.accountSid,
      CallSid: String(legSid),
      CallStatus: "no-answer",
    });
    expect(streamUpdate(unanswered.call.providerCallId)).toHaveLength(1);
    expect(await reload(unanswered.leg.id)).toMatchObject({ status: "no_answer" });
    expect(parseTranscript((await reload(unanswered.call.id)).transcript).at(-1)?.text).toBe(
      "(The transfer to Billing was not answered: no-answer.)",
    );
  });
});
