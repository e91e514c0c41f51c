import { afterEach, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { startSimulatedPeopleModel } from "../../../test/fixtures/simulated-people.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestApp } from "../../../test/support/test-app.ts";
import type { App } from "../../app.ts";
import { LINE_LOST_REASON } from "../telephony/index.ts";
import { minutesStarted } from "./call-settlement.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const env = { VOXGATE_CALL_CLOCK_SPEED: "20", VOXGATE_CALL_PRICE_PER_MINUTE: "0.10" };

/** The calls a server finished (their remaining minutes charged), as the service reports them. */
function finishedCalls() {
  const finished = new Set<number>();
  return {
    listen: (app: App) =>
      app.services.bus.on("call.finished", async ({ call }) => void finished.add(call.id)),
    async ended(t: TestApp, id: number) {
      while (!finished.has(id)) await new Promise((resolve) => setTimeout(resolve, 100));
      return t.app.db.prisma.call.findUniqueOrThrow({ where: { id } });
    },
  };
}

describe("calls across a restart", () => {
  it("keeps a running call's timers (max_duration on the next server); a conversation that lived in the stopped server ends failed, its minutes charged", {
    timeout: 120_000,
  }, async () => {
    const database = await durableDatabase();
    cleanups.push(() => database.drop());
    // With a chat model: a simulated call answered by the no-model fallback would be free.
    const model = await startSimulatedPeopleModel();
    cleanups.push(() => model.close());
    const first = await startTestApp({ model, env, database: database.first });
    let closed = false;
    cleanups.push(() => (closed ? undefined : first.close()));
    const owner = await first.createAccount({ balance: "20" });
    const number = await telephonyFixtures(first).addNumber(owner);
    // Silent callees (stays-on) that the engine prompts but does not hang up on for silence.
    const place = async (maxDuration: number) => {
      const assistant = await createAssistant(first, owner, {
        phoneNumberId: number.id,
        maxDuration,
        maxSilenceDuration: 600,
      });
      return first.app.services.callStarts.placeOutbound({
        accountId: owner.accountId,
        assistantId: assistant.id,
        to: "+14155550105",
      });
    };
    const [limited, open] = await Promise.all([place(60), place(7200)]);
    for (;;) {
      const running = await first.app.db.prisma.call.count({
        where: { id: { in: [limited.id, open.id] }, status: "in_progress" },
      });
      if (running === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await first.close();
    closed = true;

    // Listening before its workers start, which may end an overdue call at once.
    const settled = finishedCalls();
    const second = await startTestApp({
      model,
      env,
      database: database.next,
      beforeListen: settled.listen,
    });
    cleanups.push(() => second.close());
    // The second server's workers took over the calls' timers as they started.
    const atLimit = await settled.ended(second, limited.id);
    expect(atLimit).toMatchObject({ status: "ended_by_assistant", endReason: "Maximum duration reached." });
    // The other call's line (the callee and the engine's session) was in the first server's memory:
    // its lease lapsed and the call ended, so that nothing hangs until max_duration.
    const lost = await settled.ended(second, open.id);
    expect(lost).toMatchObject({ status: "failed", endReason: LINE_LOST_REASON });
    for (const call of [atLimit, lost]) {
      const minutes = await second.app.db.prisma.ledgerEntry.findMany({
        where: { callId: call.id },
        orderBy: { callMinute: "asc" },
      });
      expect(minutes.map((entry) => entry.callMinute)).toEqual(
        Array.from({ length: minutesStarted(call.duration) }, (_, index) => index + 1),
      );
      expect(call.totalCost.toFixed(2)).toBe((minutes.length / 10).toFixed(2));
    }
  });
});
