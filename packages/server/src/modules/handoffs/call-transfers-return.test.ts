import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type RealtimePhoneApp, startRealtimePhoneApp } from "../../../test/fixtures/realtime-phone-app.ts";
import { uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import type { FakeOpenAI } from "../../../test/support/fake-openai.ts";
import type { FakeRealtime } from "../../../test/support/fake-realtime.ts";
import type { FakeTwilio } from "../../../test/support/fake-twilio.ts";
import type { TestAccount, TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import {
  answerOutbound,
  callCompleted,
  mediaStreamUrl,
  twilioWebhook,
} from "../../../test/support/voice-calls.ts";
import type {
  Assistant,
  AssistantMode,
  PhoneNumber,
  TransferDestination,
} from "../../generated/prisma/client.ts";
import { parseTranscript } from "../telephony/transcript.ts";

/**
 * Transfers of realtime calls on Twilio, as the pipeline's behave: a caller whom nobody answered
 * comes back to a realtime session that knows the conversation so far (its earlier turns created as
 * items before anything is said) and hears why; a caller who hangs up while the transfer rings has
 * the ringing leg cancelled through Twilio's REST API, in every mode, and its leg costs nothing.
 */

let phone: RealtimePhoneApp;
let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let realtime: FakeRealtime;
let owner: TestAccount;
let number: PhoneNumber;

const CALLER_LEFT = "The caller hung up before the transfer connected.";
const reload = (id: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id } });
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 20 });
const ledger = async (callId: number) =>
  (await t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } })).map((entry) => [
    entry.kind,
    entry.callMinute,
    entry.amount.toFixed(2),
  ]);
const itemText = (event: Record<string, unknown>) => {
  const item = event.item as { role?: string; content?: { text?: string }[] };
  return `${item.role}: ${item.content?.[0]?.text ?? ""}`;
};

beforeAll(async () => {
  phone = await startRealtimePhoneApp({ chatModel: true });
  ({ t, twilio, realtime, owner, number } = phone);
  model = phone.model!;
});

afterAll(() => phone?.close());

/**
 * Twilio reports the cancelled leg: the caller's call ended by the caller, the leg failed with the reason, its
 * reserved first minute given back.
 */
async function legCancelledAtNoCost(status: string, legSid: string, callId: number, legId: number) {
  await twilioWebhook(t, twilio, status, {
    AccountSid: twilio.accountSid,
    CallSid: legSid,
    CallStatus: "canceled",
  });
  expect(await reload(callId)).toMatchObject({ status: "ended_by_customer", endReason: CALLER_LEFT });
  expect(await reload(legId)).toMatchObject({ status: "failed", endReason: CALLER_LEFT, duration: 0 });
  expect(await ledger(legId)).toEqual([
    ["call_debit", 1, "-0.10"],
    ["adjustment", null, "0.10"],
  ]);
}

/** An assistant in `mode` with one destination (its own number, so that its Twilio leg is found by it). */
async function withDestination(mode: AssistantMode, warm: boolean) {
  const assistant = await createAssistant(t, owner, { mode, initialMessage: "", phoneNumberId: number.id });
  const destination = await t.app.services.transferDestinations.create(owner.accountId, {
    assistantId: assistant.id,
    name: "Front desk",
    description: "Questions a person must answer.",
    phoneNumber: uniqueUsNumber(),
    ...(warm ? { mode: "warm" as const, briefingInstructions: "Name and reason first." } : {}),
  });
  return { assistant, destination };
}

/**
 * An answered call whose caller asks for a person and whose model transfers them, saying "Connecting
 * you now." first: the realtime model's script, or the chat model's. Twilio then stops the stream.
 */
async function transferred(assistant: Assistant, destination: TransferDestination) {
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    phoneNumberId: number.id,
    to: uniqueUsNumber(),
  });
  const sessions = realtime.sessions.length;
  const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
  if (assistant.mode === "pipeline") {
    model.enqueue(
      { toolCalls: [{ name: "transfer_call", arguments: { destination_id: destination.id } }] },
      { content: "Connecting you now." },
    );
  } else {
    await eventually(() => expect(realtime.sessions[sessions]?.received[0]?.type).toBe("session.update"));
    realtime.enqueue(
      { functionCall: { name: "transfer_call", arguments: { destination_id: destination.id } } },
      { text: "Connecting you now." },
    );
  }
  // A warm transfer's briefing is the chat model's.
  if (destination.mode === "warm") model.enqueue({ content: "A caller asks for a person." });
  client.speak("a person please");
  await eventually(() =>
    expect(
      twilio.requests.some(
        (request) =>
          request.resource === `/Calls/${call.providerCallId}.json` &&
          typeof request.params.Twiml === "string",
      ),
    ).toBe(true),
  );
  client.stop();
  await client.closed;
  const [leg] = await t.app.db.prisma.call.findMany({ where: { transferredFromCallId: call.id } });
  return { call, leg: leg! };
}

describe("a realtime caller back from a transfer nobody answered", () => {
  it.each(["multimodal", "dualplex"] as const)(
    "%s: the new session is given the earlier turns before the assistant says why",
    async (mode) => {
      const { assistant, destination } = await withDestination(mode, false);
      const { call, leg } = await transferred(assistant, destination);
      const answer = await twilioWebhook(t, twilio, `/telephony/twilio/transfer-action?callId=${leg.id}`, {
        AccountSid: twilio.accountSid,
        DialCallStatus: "no-answer",
        DialCallSid: `CA${randomBytes(16).toString("hex")}`,
      });
      const token = /<Parameter name="token" value="([^"]+)"\/>/.exec(answer)?.[1];
      expect(token).toBeDefined();
      const sessions = realtime.sessions.length;
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
      const received = realtime.sessions[sessions]!.received;
      const items = received.filter((event) => event.type === "conversation.item.create");
      expect(items.slice(0, 2).map(itemText)).toEqual([
        "user: a person please",
        "assistant: Connecting you now.",
      ]);
      // The earlier turns are there before the model is asked for anything.
      const firstResponse = received.findIndex((event) => event.type === "response.create");
      if (firstResponse >= 0) expect(received.indexOf(items[1]!)).toBeLessThan(firstResponse);
      expect(received[0]?.type).toBe("session.update");
      expect(await reload(call.id)).toMatchObject({ status: "in_progress", transferState: "" });
      client.close();
    },
  );
});

describe("a caller who hangs up while the transfer rings", () => {
  it("pipeline, cold: the leg Twilio dialled is cancelled; it ends with the reason and costs nothing", async () => {
    const { assistant, destination } = await withDestination("pipeline", false);
    const { call, leg } = await transferred(assistant, destination);
    const legSid = `CA${randomBytes(16).toString("hex")}`;
    const status = `/telephony/twilio/transfer-status?callId=${leg.id}`;
    for (const CallStatus of ["initiated", "ringing"])
      await twilioWebhook(t, twilio, status, { AccountSid: twilio.accountSid, CallSid: legSid, CallStatus });

    await callCompleted(t, twilio, call, 30);
    await eventually(() =>
      expect(
        twilio.requests
          .filter((request) => request.resource === `/Calls/${legSid}.json`)
          .map((r) => r.params),
      ).toEqual([{ Status: "canceled" }]),
    );
    await legCancelledAtNoCost(status, legSid, call.id, leg.id);
  });

  it("multimodal, warm: the leg Voxgate placed is cancelled; it ends with the reason and costs nothing", async () => {
    const { assistant, destination } = await withDestination("multimodal", true);
    const { call, leg } = await transferred(assistant, destination);
    const placed = await eventually(() => {
      const found = [...twilio.calls.values()].find((created) => created.to === destination.phoneNumber);
      expect(found).toBeDefined();
      return found!;
    });
    const legSid = String(placed.sid);
    const status = `/telephony/twilio/warm-status?callId=${leg.id}`;
    await twilioWebhook(t, twilio, status, {
      AccountSid: twilio.accountSid,
      CallSid: legSid,
      CallStatus: "ringing",
    });

    await callCompleted(t, twilio, call, 30);
    await eventually(() => expect(placed.status).toBe("canceled"));
    expect(
      twilio.requests.filter((request) => request.resource === `/Calls/${legSid}.json`).map((r) => r.params),
    ).toEqual([{ Status: "canceled" }]);
    await legCancelledAtNoCost(status, legSid, call.id, leg.id);
    // Nobody is taken back: the caller is gone.
    expect(
      twilio.requests.filter(
        (request) =>
          request.resource === `/Calls/${call.providerCallId}.json` &&
          String(request.params.Twiml ?? "").includes("<Connect><Stream"),
      ),
    ).toEqual([]);
  });
});
