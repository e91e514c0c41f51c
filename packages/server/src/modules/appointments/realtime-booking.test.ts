import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeRealtime, realtimeEnv, startFakeRealtime } from "../../../test/support/fake-realtime.ts";
import { type FakeSpeech, startFakeSpeech } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { findRadicale, type RunningRadicale, startRadicale } from "../../../test/support/radicale.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import * as voiceCalls from "../../../test/support/voice-calls.ts";
import { CalDavProvider } from "../calendars/index.ts";

/**
 * A multimodal call (an OpenAI Realtime model, faked) gets the same calendar functions as the chat
 * model: offered in the session, run by the engine, the booking linked to the call.
 */

const PASSWORD = `desk-${randomBytes(6).toString("hex")}`;
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

describe.skipIf(!findRadicale())("calendar functions on a realtime call", () => {
  let radicale: RunningRadicale;
  let twilio: FakeTwilio;
  let realtime: FakeRealtime;
  let speech: FakeSpeech;
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    [radicale, twilio, realtime, speech] = await Promise.all([
      startRadicale({ desk: PASSWORD }),
      startFakeTwilio(),
      startFakeRealtime(),
      startFakeSpeech(),
    ]);
    t = await startTestApp({
      env: {
        ...voiceCalls.voiceCallEnv(twilio, speech),
        VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
        VOXGATE_SECRETS_KEY: randomBytes(32).toString("base64"),
        ...realtimeEnv(realtime),
      },
    });
    owner = await t.createAccount({ balance: "50" });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([twilio?.close(), realtime?.close(), speech?.close(), radicale?.stop()]);
  });

  it("offers the functions in the session and books for the number on the line", async () => {
    const calendarUrl = await radicale.makeCalendar("desk", "visits");
    const connection = await t.app.services.calendars.createConnection(owner.accountId, {
      name: "Desk",
      provider: "caldav",
      url: calendarUrl,
      username: "desk",
      password: PASSWORD,
    });
    const allDay = [{ start: "00:00", end: "24:00" }];
    const type = await t.app.services.calendars.createAppointmentType(owner.accountId, {
      connectionId: connection.id,
      name: "Visit",
      durationMinutes: 60,
      slotGranularityMinutes: 60,
      minimumNoticeMinutes: 60,
      timezone: "UTC",
      businessHours: Object.fromEntries(
        ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((day) => [day, allDay]),
      ),
    });
    const number = await telephonyFixtures(t).addNumber(owner);
    const assistant = await createAssistant(t, owner, {
      mode: "multimodal",
      phoneNumberId: number.id,
      appointmentTypeIds: [type.id],
    });
    const to = uniqueUsNumber();
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to,
    });
    const token = await voiceCalls.answerOutbound(t, twilio, call);
    const model = realtime.sessions.length;
    const client = await TwilioMediaClient.connect(voiceCalls.mediaStreamUrl(t), token);
    client.autoAckMarks = true;
    await eventually(() => expect(realtime.sessions[model]?.received[0]?.type).toBe("session.update"));
    const received = (kind: string) =>
      realtime.sessions[model]!.received.filter((event) => event.type === kind);
    const tools = (received("session.update")[0]!.session as { tools: { name: string }[] }).tools;
    expect(tools.map((tool) => tool.name)).toEqual([
      "end_call",
      "send_dtmf",
      "send_sms",
      "check_availability",
      "book_appointment",
      "find_appointments",
      "reschedule_appointment",
      "cancel_appointment",
    ]);

    const [slot] = await t.app.services.appointments.availableSlots(
      owner.accountId,
      type.id,
      new Date(Date.now() + 2 * 86_400_000),
      new Date(Date.now() + 3 * 86_400_000),
    );
    const start = new Date(slot!.start).toISOString();
    realtime.enqueue(
      { functionCall: { name: "book_appointment", arguments: { start, customer_name: "Grace" } } },
      { text: "You are booked." },
    );
    client.speak("book me in");
    await eventually(() => expect(received("conversation.item.create").length).toBe(1));
    const output = JSON.parse(
      (received("conversation.item.create")[0]!.item as { output: string }).output,
    ) as { result: { appointment_id: number } };
    const appointment = await t.app.db.prisma.appointment.findUniqueOrThrow({
      where: { id: output.result.appointment_id },
    });
    expect(appointment).toMatchObject({
      callId: call.id,
      customerPhone: to,
      assistantId: assistant.id,
      status: "booked",
    });
    const inCalendar = await new CalDavProvider({ timeoutMs: 10_000, allowList: ["127.0.0.1"] }).busy(
      { url: calendarUrl, readUrls: [], username: "desk", secret: PASSWORD },
      { start: slot!.start - 86_400_000, end: slot!.end + 86_400_000 },
      "UTC",
    );
    expect(inCalendar).toEqual([{ start: slot!.start, end: slot!.end }]);
    // The call's review shows the booking on the turn that made it (GraphQL over HTTP).
    await eventually(async () => {
      const { data } = await t.gql<{
        call: {
          turns: { speaker: string; functionCalls: { name: string; result: unknown; error: unknown }[] }[];
        };
      }>(
        "query($id: Int!) { call(id: $id) { turns { speaker functionCalls { name result error } } } }",
        { id: call.id },
        { token: owner.apiKey },
      );
      expect(data?.call.turns.filter((turn) => turn.functionCalls.length > 0)).toEqual([
        {
          speaker: "assistant",
          functionCalls: [
            {
              name: "book_appointment",
              result: expect.objectContaining({ appointment_id: appointment.id }),
              error: null,
            },
          ],
        },
      ]);
    });
    await voiceCalls.callerHangsUp(t, twilio, client, call, 5);
  });
});
