import { STATUS_BY_CODE } from "@voxgate/rest-compat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { startSimulatedPeopleModel } from "../../../test/fixtures/simulated-people.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import type { FakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { CALLER_ID_VERIFICATION } from "./caller-id-verification.ts";

// A number belongs to one account at most (issue #28), on the simulated carrier. Twilio's side of the
// same rules is in telephony/twilio/twilio.test.ts.

let t: TestApp;
let fixtures: ReturnType<typeof telephonyFixtures>;
let model: FakeOpenAI;

beforeAll(async () => {
  // With a chat model, so that calls are billed (answered by the fallback they would be free).
  model = await startSimulatedPeopleModel();
  t = await startTestApp({ model });
  fixtures = telephonyFixtures(t);
});
afterAll(async () => {
  await t?.close();
  await model?.close();
});

const ADD = `mutation($input: AddPhoneNumberInput!) { addPhoneNumber(input: $input) { id status } }`;
const addOver = (account: TestAccount, input: Record<string, unknown>) =>
  t.gql<{ addPhoneNumber: { id: number; status: string } }>(ADD, { input }, { token: account.apiKey });
const KINDS = [
  { kind: "normal" },
  { kind: "sip", sipUri: "sip:desk@pbx-a.example.com" },
  { kind: "caller_id" },
] as const;

let providerCallIds = 0;
const ringFromPhoneNetwork = (to: string) =>
  t.app.services.inboundCalls.receiveInbound({
    carrier: "simulated",
    providerCallId: `SIMTEST${process.pid}x${++providerCallIds}`,
    to,
    from: "+14155550199",
  });
const ringOverSip = (to: string, sipHost: string) =>
  t.app.services.inboundCalls.receiveInbound({
    carrier: "simulated",
    providerCallId: `SIMTEST${process.pid}x${++providerCallIds}`,
    to,
    from: "sip:caller@somewhere.example.com",
    sipHost,
  });

/** What the simulated carrier's verification call said to `phoneNumber`, last. */
async function spokenCode(phoneNumber: string): Promise<string> {
  const call = await t.app.db.prisma.providerOperation.findFirstOrThrow({
    where: { phoneNumber, operation: "caller_id_verification_call" },
    orderBy: { id: "desc" },
  });
  return (call.payload as { code: string }).code;
}

describe("one holder per number", () => {
  it("refuses another account's number whatever the kind, with a 409 that does not say who holds it", async () => {
    const [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
    const bobs = await fixtures.addNumber(bob);
    for (const kind of KINDS) {
      const response = await addOver(alice, { ...kind, phoneNumber: bobs.phoneNumber });
      const error = response.errors?.[0];
      // Nothing but the code: no account, no kind, no hint of the holder.
      expect(error?.extensions).toEqual({ code: "PHONE_NUMBER_UNAVAILABLE" });
      expect(error?.message).toBe("The phone number is not available.");
    }
    // Exactly what a number the carrier does not offer answers, and REST maps it to 409.
    expect(STATUS_BY_CODE.PHONE_NUMBER_UNAVAILABLE).toBe(409);
    expect(
      await t.app.db.prisma.phoneNumber.findMany({
        where: { phoneNumber: bobs.phoneNumber },
        select: { accountId: true },
      }),
    ).toEqual([{ accountId: bob.accountId }]);
    // Alice never reached the carrier for it.
    const operations = await t.app.db.prisma.providerOperation.findMany({
      where: { phoneNumber: bobs.phoneNumber },
    });
    expect(operations.map((operation) => operation.operation)).toEqual(["purchase_number"]);
  });

  it("lets exactly one of several accounts adding a number at once have it", async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => t.createAccount()));
    const number = uniqueUsNumber();
    const outcomes = await Promise.allSettled(
      accounts.map((account, index) =>
        fixtures.addNumber(account, { ...KINDS[index % KINDS.length], phoneNumber: number }),
      ),
    );
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const lost = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost.map((outcome) => (outcome.reason as { code: string }).code)).toEqual(
      Array(accounts.length - 1).fill("PHONE_NUMBER_UNAVAILABLE"),
    );
    expect(await t.app.db.prisma.phoneNumber.count({ where: { phoneNumber: number } })).toBe(1);
  });

  it("routes a call to the number to its one holder, who is billed, never to another account", async () => {
    const [alice, bob] = await Promise.all([
      t.createAccount({ balance: "20" }),
      t.createAccount({ balance: "20" }),
    ]);
    const bobs = await fixtures.addNumber(bob);
    const bobsAssistant = await createAssistant(t, bob, { phoneNumberId: bobs.id });
    // Alice tries to put her assistant on Bob's number: as a SIP number, then as a caller ID.
    const sip = await addOver(alice, { ...KINDS[1], phoneNumber: bobs.phoneNumber });
    const callerId = await addOver(alice, { ...KINDS[2], phoneNumber: bobs.phoneNumber });
    expect([sip, callerId].map((response) => response.errors?.[0]?.extensions?.code)).toEqual([
      "PHONE_NUMBER_UNAVAILABLE",
      "PHONE_NUMBER_UNAVAILABLE",
    ]);
    await createAssistant(t, alice);

    const decision = await ringFromPhoneNetwork(bobs.phoneNumber);
    expect(decision.accepted).toBe(true);
    const call = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: decision.callId! } });
    expect(call).toMatchObject({ accountId: bob.accountId, assistantId: bobsAssistant.id });
    const debits = await t.app.db.prisma.ledgerEntry.findMany({ where: { callId: call.id } });
    expect(debits.map((entry) => entry.accountId)).toEqual([bob.accountId]);
    expect(await t.app.db.prisma.call.count({ where: { accountId: alice.accountId } })).toBe(0);
  });

  it("routes a SIP call only from the PBX of the SIP number's URI, and a phone-network call never to a SIP number", async () => {
    const owner = await t.createAccount({ balance: "20" });
    const sip = await fixtures.addNumber(owner, { kind: "sip", sipUri: "sip:desk@PBX-A.example.com:5060" });
    await createAssistant(t, owner, { phoneNumberId: sip.id });

    const otherPbx = await ringOverSip(sip.phoneNumber, "pbx-b.example.com");
    expect(otherPbx).toMatchObject({ accepted: false, callId: null });
    const phoneNetwork = await ringFromPhoneNetwork(sip.phoneNumber);
    expect(phoneNetwork).toMatchObject({ accepted: false, callId: null });
    const ownPbx = await ringOverSip(sip.phoneNumber, "pbx-a.example.com");
    expect(ownPbx.accepted).toBe(true);
    expect(await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: ownPbx.callId! } })).toMatchObject({
      accountId: owner.accountId,
      phoneNumberId: sip.id,
    });
    // A SIP call to a dedicated number is refused too: that number is reached through the phone network.
    const dedicated = await fixtures.addNumber(owner);
    expect(await ringOverSip(dedicated.phoneNumber, "pbx-a.example.com")).toMatchObject({ callId: null });
  });

  it("lets another account take a released number once the release completed", async () => {
    const [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
    for (const kind of [KINDS[1], KINDS[2]]) {
      const bobs = await fixtures.addNumber(bob, kind);
      expect(
        (await addOver(alice, { ...kind, phoneNumber: bobs.phoneNumber })).errors?.[0]?.extensions?.code,
      ).toBe("PHONE_NUMBER_UNAVAILABLE");
      await t.app.services.phoneNumbers.release(bob.accountId, bobs.id);
      // A minute later: a caller ID's phone gets one verification call a minute.
      const later = new Date(Date.now() + CALLER_ID_VERIFICATION.restartAfterMs);
      const taken = await t.app.services.phoneNumbers.add(
        alice.accountId,
        { ...kind, phoneNumber: bobs.phoneNumber },
        later,
      );
      expect(taken.accountId).toBe(alice.accountId);
      expect((await ringFromPhoneNetwork(bobs.phoneNumber)).callId).toBeNull();
    }
  });
});

describe("caller ID verification on the simulated carrier", () => {
  const VERIFY = `mutation($id: Int!, $code: String) { verifyCallerId(id: $id, code: $code) { id status verifiedAt validationCode } }`;

  it("keeps a caller ID from calling until the code its verification call spoke is entered", async () => {
    const owner = await t.createAccount({ balance: "20" });
    const assistant = await createAssistant(t, owner);
    const callerId = await fixtures.addNumber(owner, { kind: "caller_id" });
    expect(callerId).toMatchObject({
      status: "pending_verification",
      verifiedAt: null,
      validationCode: null,
    });

    const call = () =>
      t.app.services.callStarts.placeOutbound({
        accountId: owner.accountId,
        assistantId: assistant.id,
        phoneNumberId: callerId.id,
        to: uniqueUsNumber(),
      });
    await expect(call()).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        phoneNumberId: ["The caller ID has not been verified yet: verify it before calling from it."],
      },
    });
    await expect(
      t.app.services.campaigns.create(owner.accountId, { name: "Spring", phoneNumberIds: [callerId.id] }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });

    const code = await spokenCode(callerId.phoneNumber);
    const wrong = code === "000000" ? "000001" : "000000";
    const verify = (value: string | null, token = owner.apiKey) =>
      t.gql<{ verifyCallerId: { status: string; verifiedAt: string | null } }>(
        VERIFY,
        { id: callerId.id, code: value },
        { token },
      );
    const bad = await verify(wrong);
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { code: ["The verification code is not correct."] },
    });
    // Another account cannot verify it, even with the right code.
    const stranger = await t.createAccount();
    expect((await verify(code, stranger.apiKey)).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

    const good = await verify(code);
    expect(good.data!.verifyCallerId).toMatchObject({ status: "active" });
    expect(good.data!.verifyCallerId.verifiedAt).not.toBeNull();
    expect((await call()).status).toBe("initiated");
  });

  it("limits tries and lifetime of a code, and gives a new one on a new verification call", async () => {
    const owner = await t.createAccount();
    const added = new Date();
    const callerId = await t.app.services.phoneNumbers.add(
      owner.accountId,
      { kind: "caller_id", phoneNumber: uniqueUsNumber() },
      added,
    );
    const service = t.app.services.phoneNumbers;
    const first = await spokenCode(callerId.phoneNumber);
    const wrong = first === "000000" ? "000001" : "000000";
    for (let attempt = 0; attempt < CALLER_ID_VERIFICATION.maxAttempts; attempt++) {
      await expect(service.verifyCallerId(owner.accountId, callerId.id, wrong, added)).rejects.toMatchObject({
        fields: { code: ["The verification code is not correct."] },
      });
    }
    // Spent: even the right code is refused now.
    await expect(service.verifyCallerId(owner.accountId, callerId.id, first, added)).rejects.toMatchObject({
      fields: { code: ["Too many wrong codes: ask for a new verification call."] },
    });
    // A new call at most once a minute.
    await expect(
      service.restartCallerIdVerification(owner.accountId, callerId.id, added),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });
    const restartedAt = new Date(added.getTime() + CALLER_ID_VERIFICATION.restartAfterMs);
    await service.restartCallerIdVerification(owner.accountId, callerId.id, restartedAt);
    const second = await spokenCode(callerId.phoneNumber);
    const expired = new Date(restartedAt.getTime() + CALLER_ID_VERIFICATION.codeTtlMs);
    await expect(service.verifyCallerId(owner.accountId, callerId.id, second, expired)).rejects.toMatchObject(
      {
        fields: { code: ["The verification code has expired: ask for a new verification call."] },
      },
    );
    const verified = await service.verifyCallerId(owner.accountId, callerId.id, second, restartedAt);
    expect(verified.status).toBe("active");
  });

  it("places one verification call a minute to a phone, even when the caller ID is released and added again", async () => {
    const [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
    const service = t.app.services.phoneNumbers;
    const phoneNumber = uniqueUsNumber();
    const first = new Date();
    const alices = await service.add(alice.accountId, { kind: "caller_id", phoneNumber }, first);
    await service.release(alice.accountId, alices.id, first);
    await expect(service.add(bob.accountId, { kind: "caller_id", phoneNumber }, first)).rejects.toMatchObject(
      {
        code: "RATE_LIMITED",
      },
    );
    const later = new Date(first.getTime() + CALLER_ID_VERIFICATION.restartAfterMs);
    expect((await service.add(bob.accountId, { kind: "caller_id", phoneNumber }, later)).accountId).toBe(
      bob.accountId,
    );
    const calls = await t.app.db.prisma.providerOperation.count({
      where: { phoneNumber, operation: "caller_id_verification_call" },
    });
    expect(calls).toBe(2);
  });
});
