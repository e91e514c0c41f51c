import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import {
  type FakeChatReply,
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import type { Assistant, Call, PhoneNumber } from "../../generated/prisma/client.ts";
import { minutesStarted } from "../calls/call-settlement.ts";
import { toApiStatus } from "../calls/call-status.ts";
import { parseTranscript } from "../telephony/transcript.ts";

/**
 * Phone transfers on the simulated carrier, through the real voice engine (text turns) with the
 * fake OpenAI scripting the assistant, the simulated caller and the warm briefing: the destination
 * answers (the caller is connected, both legs billed), is busy or does not answer (the caller comes
 * back to the assistant, which says so and offers a message); a warm destination's person is briefed
 * and accepts or declines; destinations of other assistants and accounts are never offered nor dialled.
 */

const PRICE = 0.1;
const BUSY = "+14155550102";
const NO_ANSWER = "+14155550101";
const DECLINES = "+14155550107";
const BRIEFING = "The caller asks for a person.";

const ASK = "Put me through to a person, please.";
const HANDOVER = "Connecting you to the front desk now.";

let t: TestApp;
let fake: FakeOpenAI;
let receiver: WebhookReceiver;
let owner: TestAccount;
let stranger: TestAccount;
let number: PhoneNumber;
const finished = new Map<number, (call: Call) => void>();

/** The simulated caller's requests: its persona prompt. */
const caller = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.includes("reached its AI assistant") ?? false;
/** A warm transfer's briefing request. */
const briefer = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.startsWith("You brief a person") ?? false;
const lastUser = (request: RecordedChatRequest) =>
  request.messages.findLast((message) => message.role === "user")?.content ?? "";
const toolResults = (request: RecordedChatRequest) => {
  const last = request.messages.findLastIndex((message) => message.role === "user");
  return request.messages
    .slice(last + 1)
    .filter((message) => message.role === "tool")
    .map((message) => JSON.parse(message.content ?? "{}") as Record<string, unknown>);
};

/**
 * The caller asks for a person; back from a transfer nobody answered, they leave a message; told it
 * is their last reply, they say goodbye. The assistant calls transfer_call with `destinationId` on
 * the request, then says the handover sentence; a message is noted.
 */
function script(destinationId: () => number) {
  fake.reset();
  fake.respondWith((request): FakeChatReply => {
    const heard = lastUser(request);
    if (briefer(request)) return { content: BRIEFING };
    if (caller(request)) {
      if (heard.includes("last reply")) return { content: "Goodbye." };
      if (heard.includes("could not reach")) return { content: "Please take a message then." };
      return { content: heard.includes("noted") ? "Thank you." : ASK };
    }
    if (heard === ASK) {
      const results = toolResults(request);
      if (results.length === 0)
        return { toolCalls: [{ name: "transfer_call", arguments: { destination_id: destinationId() } }] };
      return { content: results[0]!.error ? "Sorry, I cannot transfer you." : HANDOVER };
    }
    if (heard.includes("message")) return { content: "I noted your message." };
    return { content: "Goodbye." };
  });
}

async function destination(account: TestAccount, assistant: Assistant, input: Record<string, unknown>) {
  return t.app.services.transferDestinations.create(account.accountId, {
    assistantId: assistant.id,
    name: "Front desk",
    description: "Questions a person must answer.",
    phoneNumber: uniqueUsNumber(),
    ...input,
  });
}

/** A simulated caller rings the number; resolves with the call once it ended (its listeners ran). */
async function incomingCall(): Promise<Call> {
  const call = await t.app.services.inboundCalls.simulateInbound(owner.accountId, {
    phoneNumberId: number.id,
    from: uniqueUsNumber(),
  });
  expect(call.status).toBe("in_progress");
  return new Promise<Call>((resolve) => finished.set(call.id, resolve));
}

const reload = (id: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id } });
const legsOf = (id: number) =>
  t.app.db.prisma.call.findMany({ where: { transferredFromCallId: id }, orderBy: { id: "asc" } });
const ledger = (callId: number) =>
  t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } });
const lines = (call: Call) => parseTranscript(call.transcript).map((line) => line.text);

beforeAll(async () => {
  [fake, receiver] = await Promise.all([startFakeOpenAI(), startWebhookReceiver()]);
  t = await startTestApp({
    model: fake,
    env: {
      VOXGATE_CALL_CLOCK_SPEED: "20",
      VOXGATE_CALL_PRICE_PER_MINUTE: String(PRICE),
      VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
    },
  });
  t.app.services.bus.on("call.finished", async ({ call }) => finished.get(call.id)?.(call));
  owner = await t.createAccount({ balance: "50" });
  stranger = await t.createAccount({ balance: "50" });
  number = await telephonyFixtures(t).addNumber(owner);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await receiver?.close();
});

/** The number's assistant, answering with webhooks to the receiver. */
async function answeringAssistant() {
  await t.app.db.prisma.assistant.updateMany({
    where: { phoneNumberId: number.id },
    data: { phoneNumberId: null },
  });
  return createAssistant(t, owner, {
    phoneNumberId: number.id,
    isWebhookActive: true,
    webhookUrl: receiver.url,
  });
}

describe("cold transfer on the simulated carrier", () => {
  it("connects the caller to a destination that answers; the assistant leaves, both legs are billed", async () => {
    const assistant = await answeringAssistant();
    const desk = await destination(owner, assistant, {});
    const warm = await destination(owner, assistant, { name: "Warm line", mode: "warm" });
    // Never offered: another assistant's destination and another account's.
    const other = await createAssistant(t, owner, {});
    const elsewhere = await destination(owner, other, { name: "Other assistant's desk" });
    const strangers = await destination(stranger, await createAssistant(t, stranger, {}), { name: "Theirs" });
    script(() => desk.id);

    const ended = await incomingCall();
    const [leg] = await legsOf(ended.id);
    expect(leg).toBeDefined();
    const legEnded = await reload(leg!.id);

    // The caller's call: transferred, then ended when the transferred conversation did.
    expect(ended).toMatchObject({
      status: "completed",
      endReason: "Transferred to Front desk.",
      transferState: "connected",
      transferredToCallId: leg!.id,
    });
    expect(lines(ended)).toEqual(["Hello! How can I help?", ASK, HANDOVER, "(Transferred to Front desk.)"]);
    // The leg: its own record, linked, dialled from the account's number to the destination.
    expect(legEnded).toMatchObject({
      status: "completed",
      type: "outbound",
      transferredFromCallId: ended.id,
      transferDestinationName: "Front desk",
      clientPhoneNumber: desk.phoneNumber,
      assistantPhoneNumber: number.phoneNumber,
      providerName: "simulated",
    });
    expect(legEnded.duration).toBeGreaterThan(0);

    // Both legs billed per started minute through the ledger, and their totals say so.
    for (const call of [ended, legEnded]) {
      const entries = await ledger(call.id);
      const minutes = minutesStarted(call.duration);
      expect(entries.map((entry) => [entry.kind, entry.callMinute])).toEqual(
        Array.from({ length: minutes }, (_, i) => ["call_debit", i + 1]),
      );
      expect(entries.every((entry) => entry.heldUntil === null)).toBe(true);
      expect(Number(call.totalCost)).toBeCloseTo(minutes * PRICE, 4);
    }

    // The model read the cold destinations of its own assistant only.
    const offered = fake.chatRequests
      .filter((request) => !caller(request) && !briefer(request))[0]!
      .tools!.find((tool) => tool.function.name === "transfer_call")!;
    expect(offered.function.description).toContain(`${desk.id}: Front desk. Questions a person must answer.`);
    expect(offered.function.parameters).toMatchObject({
      properties: { destination_id: { enum: [desk.id, warm.id] } },
    });
    expect(offered.function.description).toContain(`${warm.id}: Warm line.`);
    for (const hidden of [elsewhere.name, strangers.name])
      expect(offered.function.description).not.toContain(hidden);

    const transferred = await receiver.waitFor(
      (hook) => hook.json.type === "call.transferred" && hook.json.data.call_id === ended.id,
    );
    expect(transferred.json.data).toEqual({
      call_id: ended.id,
      assistant_id: assistant.id,
      transfer_call_id: leg!.id,
      destination: "Front desk",
      to: desk.phoneNumber,
    });
  });

  it.each([
    [BUSY, "busy", "the line is busy"],
    [NO_ANSWER, "no-answer", "nobody answered"],
  ])("brings the caller back to the assistant when %s is %s", async (to, outcome, why) => {
    const assistant = await answeringAssistant();
    const desk = await destination(owner, assistant, { phoneNumber: to });
    script(() => desk.id);

    const ended = await incomingCall();
    const [leg] = await legsOf(ended.id);
    // The caller came back, left a message and hung up: the call is theirs to end, as usual.
    expect(ended).toMatchObject({ status: "ended_by_customer", transferredToCallId: leg!.id });
    const greeting = `I'm sorry, I could not reach Front desk: ${why}. I can take a message or arrange for someone to call you back. What would you prefer?`;
    expect(lines(ended).slice(0, 6)).toEqual([
      "Hello! How can I help?",
      ASK,
      HANDOVER,
      `(The transfer to Front desk was not answered: ${outcome}.)`,
      greeting,
      "Please take a message then.",
    ]);
    // The assistant answered the message knowing the conversation before the transfer.
    const after = fake.chatRequests.find(
      (request) =>
        !caller(request) && !briefer(request) && lastUser(request) === "Please take a message then.",
    )!;
    expect(after.messages.map((message) => message.content)).toEqual(
      expect.arrayContaining([ASK, HANDOVER, greeting]),
    );
    // The leg never answered: its reserved minute was given back.
    const legEnded = await reload(leg!.id);
    expect(toApiStatus(legEnded.status)).toBe(outcome);
    expect(legEnded).toMatchObject({ duration: 0, transferredFromCallId: ended.id });
    expect(Number(legEnded.totalCost)).toBe(0);
    expect((await ledger(leg!.id)).map((entry) => entry.kind)).toEqual(["call_debit", "adjustment"]);

    const failed = await receiver.waitFor(
      (hook) => hook.json.type === "call.transfer_failed" && hook.json.data.call_id === ended.id,
    );
    expect(failed.json.data).toMatchObject({ transfer_call_id: leg!.id, outcome, destination: "Front desk" });
  });

  it("ends the ringing leg when the caller's call is ended meanwhile; the leg costs nothing", async () => {
    const assistant = await answeringAssistant();
    const desk = await destination(owner, assistant, { phoneNumber: NO_ANSWER });
    script(() => desk.id);
    const call = await t.app.services.inboundCalls.simulateInbound(owner.accountId, {
      phoneNumberId: number.id,
      from: uniqueUsNumber(),
    });
    const ringing = await vi.waitFor(
      async () => {
        const [leg] = await legsOf(call.id);
        expect(leg?.status).toBe("ringing");
        return leg!;
      },
      { timeout: 15_000, interval: 20 },
    );
    await t.app.services.callLifecycle.end(owner.accountId, call.id);
    const legEnded = await vi.waitFor(
      async () => {
        const leg = await reload(ringing.id);
        expect(leg.status).toBe("failed");
        return leg;
      },
      { timeout: 15_000, interval: 20 },
    );
    expect(legEnded).toMatchObject({
      endReason: "The call ended before the transfer connected.",
      duration: 0,
    });
    expect((await ledger(ringing.id)).map((entry) => entry.kind)).toEqual(["call_debit", "adjustment"]);
    expect(Number(legEnded.totalCost)).toBe(0);
    // Nobody came back to the assistant.
    const ended = await reload(call.id);
    expect(ended).toMatchObject({ status: "ended", transferState: "dialing" });
    expect(lines(ended)).toEqual(["Hello! How can I help?", ASK, HANDOVER]);
  });

  it("never dials a destination of another assistant or account, whatever id the model passes", async () => {
    const assistant = await answeringAssistant();
    await destination(owner, assistant, {});
    const other = await destination(owner, await createAssistant(t, owner, {}), { name: "Not yours" });
    const foreign = await destination(stranger, await createAssistant(t, stranger, {}), { name: "Theirs" });
    let target = other.id;
    script(() => target);
    const first = await incomingCall();
    target = foreign.id;
    const second = await incomingCall();
    for (const ended of [first, second]) {
      expect(await legsOf(ended.id)).toEqual([]);
      expect(ended).toMatchObject({ status: "ended_by_customer", transferState: "" });
      expect(lines(ended)).toContain("Sorry, I cannot transfer you.");
    }
    const refusals = fake.chatRequests
      .filter((request) => !caller(request) && !briefer(request))
      .flatMap(toolResults)
      .filter((result) => typeof result.error === "string");
    expect(refusals.length).toBeGreaterThanOrEqual(2);
    expect(refusals[0]!.error).toContain("cannot be reached now");
  });

  it("briefs the person of a warm destination first; they accept and the caller is connected", async () => {
    const assistant = await answeringAssistant();
    const desk = await destination(owner, assistant, {
      mode: "warm",
      briefingInstructions: "Name and reason first.",
    });
    script(() => desk.id);
    const ended = await incomingCall();
    const [leg] = await legsOf(ended.id);
    expect(ended).toMatchObject({
      status: "completed",
      endReason: "Transferred to Front desk.",
      transferState: "connected",
    });
    expect(lines(ended)).toEqual(["Hello! How can I help?", ASK, HANDOVER, "(Transferred to Front desk.)"]);
    // The leg's transcript is what the person heard first: the briefing the chat model wrote.
    const legEnded = await reload(leg!.id);
    expect(legEnded).toMatchObject({ status: "completed", transcript: `Assistant: ${BRIEFING}` });
    const asked = fake.chatRequests.find(briefer)!;
    expect(asked.messages[0]!.content).toContain("What the briefing covers: Name and reason first.");
    expect(asked.messages.at(-1)!.content).toContain(`Customer: ${ASK}`);
  });

  it("brings the caller back when the briefed person declines; their answered leg is billed", async () => {
    const assistant = await answeringAssistant();
    const desk = await destination(owner, assistant, { mode: "warm", phoneNumber: DECLINES });
    script(() => desk.id);
    const ended = await incomingCall();
    const [leg] = await legsOf(ended.id);
    expect(ended).toMatchObject({ status: "ended_by_customer", transferredToCallId: leg!.id });
    expect(lines(ended).slice(2, 5)).toEqual([
      HANDOVER,
      "(Front desk declined the transfer.)",
      "I'm sorry, I could not reach Front desk: they cannot take the call right now. I can take a message or arrange for someone to call you back. What would you prefer?",
    ]);
    const legEnded = await reload(leg!.id);
    expect(legEnded).toMatchObject({ status: "completed", transcript: `Assistant: ${BRIEFING}` });
    expect((await ledger(leg!.id)).map((entry) => [entry.kind, entry.callMinute])).toEqual([
      ["call_debit", 1],
    ]);
    const failed = await receiver.waitFor(
      (hook) => hook.json.type === "call.transfer_failed" && hook.json.data.call_id === ended.id,
    );
    expect(failed.json.data).toMatchObject({ outcome: "declined", transfer_call_id: leg!.id });
  });
});

describe("an operator taking a call over", () => {
  const TAKE_OVER = `mutation($callId: Int!, $phoneNumber: String!) {
    takeOverCall(callId: $callId, phoneNumber: $phoneNumber) { id transferDestinationName }
  }`;

  it("transfers the caller warm to the operator's own phone at once; refuses other accounts and bad numbers", async () => {
    await answeringAssistant();
    fake.reset();
    fake.respondWith((request): FakeChatReply => {
      if (briefer(request)) return { content: BRIEFING };
      if (caller(request)) return { content: lastUser(request).includes("last reply") ? "Goodbye." : ASK };
      return { content: "Let me see what I can do." };
    });
    const call = await t.app.services.inboundCalls.simulateInbound(owner.accountId, {
      phoneNumberId: number.id,
      from: uniqueUsNumber(),
    });
    const ended = new Promise<Call>((resolve) => finished.set(call.id, resolve));
    const operatorPhone = uniqueUsNumber();

    const foreign = await t.gql(
      TAKE_OVER,
      { callId: call.id, phoneNumber: operatorPhone },
      { token: stranger.apiKey },
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const premium = await t.gql(
      TAKE_OVER,
      { callId: call.id, phoneNumber: "+19005550123" },
      { token: owner.apiKey },
    );
    expect(premium.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(await legsOf(call.id)).toEqual([]);

    const taken = await t.gql<{ takeOverCall: { id: number; transferDestinationName: string } }>(
      TAKE_OVER,
      { callId: call.id, phoneNumber: operatorPhone },
      { token: owner.apiKey },
    );
    expect(taken.errors).toBeUndefined();
    const leg = taken.data!.takeOverCall;
    expect(leg.transferDestinationName).toBe("an operator");
    // Audited with who took it over (docs/data-governance.md#audit-log); refused attempts are not.
    const logged = await t.gql<{ auditLog: { entries: unknown[] } }>(
      `query { auditLog(filter: { action: "call.taken_over" }) { entries { actorKind targetId details } } }`,
      {},
      { token: owner.apiKey },
    );
    expect(logged.data?.auditLog.entries).toEqual([
      {
        actorKind: "apiKey",
        targetId: String(call.id),
        details: { legCallId: leg.id, phoneNumber: operatorPhone },
      },
    ]);

    const done = await ended;
    expect(done).toMatchObject({
      status: "completed",
      endReason: "Transferred to an operator.",
      transferState: "connected",
      transferredToCallId: leg.id,
    });
    expect(lines(done).at(-1)).toBe("(Transferred to an operator.)");
    // The operator heard the briefing first, written from the conversation so far.
    expect(await reload(leg.id)).toMatchObject({
      clientPhoneNumber: operatorPhone,
      transferredFromCallId: call.id,
      transcript: `Assistant: ${BRIEFING}`,
    });
    expect(fake.chatRequests.some(briefer)).toBe(true);
    const transferred = await receiver.waitFor(
      (hook) => hook.json.type === "call.transferred" && hook.json.data.call_id === call.id,
    );
    expect(transferred.json.data).toMatchObject({ transfer_call_id: leg.id, destination: "an operator" });
    // Once over, the call cannot be taken again.
    const again = await t.gql(
      TAKE_OVER,
      { callId: call.id, phoneNumber: operatorPhone },
      { token: owner.apiKey },
    );
    expect(again.errors?.[0]?.extensions?.code).toBe("CONFLICT");
  });
});
