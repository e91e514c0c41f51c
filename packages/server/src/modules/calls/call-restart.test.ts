import { afterEach, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import { startTestApp } from "../../../test/support/test-app.ts";
import { minutesStarted } from "./calls.service.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const env = { VOXGATE_CALL_CLOCK_SPEED: "20", VOXGATE_CALL_PRICE_PER_MINUTE: "0.10" };

describe("calls across a restart", () => {
  it("keeps a running call's timers: the next server charges its minutes and hangs up at max_duration", {
    timeout: 90_000,
  }, async () => {
    const database = await durableDatabase();
    cleanups.push(() => database.drop());
    const first = await startTestApp({ env, database: database.first });
    let closed = false;
    cleanups.push(() => (closed ? undefined : first.close()));
    const owner = await first.createAccount({ balance: "20" });
    const number = await telephonyFixtures(first).addNumber(owner);
    const assistant = await createAssistant(first, owner, { phoneNumberId: number.id, maxDuration: 150 });
    const placed = await first.app.services.calls.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: "+14155550105",
    });
    for (;;) {
      const call = await first.app.db.prisma.call.findUniqueOrThrow({ where: { id: placed.id } });
      if (call.status === "in_progress") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await first.close();
    closed = true;

    const second = await startTestApp({ env, database: database.next });
    cleanups.push(() => second.close());
    // The second server's workers took over the call's timers as they started.
    for (;;) {
      const call = await second.app.db.prisma.call.findUniqueOrThrow({ where: { id: placed.id } });
      if (call.status === "ended_by_assistant") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const call = await second.app.db.prisma.call.findUniqueOrThrow({ where: { id: placed.id } });
    expect(call).toMatchObject({ status: "ended_by_assistant", endReason: "Maximum duration reached." });
    const minutes = await second.app.db.prisma.ledgerEntry.findMany({
      where: { callId: call.id },
      orderBy: { callMinute: "asc" },
    });
    expect(minutes.map((entry) => entry.callMinute)).toEqual(
      Array.from({ length: minutesStarted(call.duration) }, (_, index) => index + 1),
    );
    expect(call.totalCost.toFixed(2)).toBe((minutes.length / 10).toFixed(2));
  });
});
